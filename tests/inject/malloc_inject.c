/* SPDX-License-Identifier: MIT */
/* The counting allocator of malloc_inject.h. */
#include "malloc_inject.h"

#include <stdlib.h>

extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);

struct malloc_inject inj;

/* Whether this allocation is the one to fail (and count it). */
static int fail_now(void)
{
	if (!inj.armed)
		return 0;
	return ++inj.calls == inj.fail_at;
}

void *malloc(size_t size)
{
	if (fail_now())
		return NULL;
	void *p = __libc_malloc(size);
	if (p && inj.armed)
		inj.live++;
	return p;
}

void *calloc(size_t n, size_t size)
{
	if (fail_now())
		return NULL;
	void *p = __libc_calloc(n, size);
	if (p && inj.armed)
		inj.live++;
	return p;
}

void *realloc(void *ptr, size_t size)
{
	if (!ptr)
		return malloc(size);
	if (size == 0) {
		free(ptr);
		return NULL;
	}
	if (fail_now())
		return NULL;
	return __libc_realloc(ptr, size);
}

void free(void *ptr)
{
	if (ptr && inj.armed)
		inj.live--;
	__libc_free(ptr);
}
