/* SPDX-License-Identifier: MIT */
/*
 * malloc, calloc, realloc and free replaced by counting versions over
 * glibc's own (__libc_malloc ...), for the tests that make every
 * allocation of a whole run fail in turn: armed (inj.armed), the
 * inj.fail_at-th allocation (1-based) returns NULL, and inj.live counts
 * the blocks allocated minus freed while armed. glibc only, and never
 * under the sanitizers, which own malloc.
 */
#ifndef DOMINO_TEST_MALLOC_INJECT_H
#define DOMINO_TEST_MALLOC_INJECT_H

#include <stddef.h>

struct malloc_inject {
	int armed;
	long calls;   /* allocations asked for while armed */
	long fail_at; /* 1-based; 0 never */
	long live;    /* blocks allocated minus freed while armed */
};
extern struct malloc_inject inj;

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *ptr);

#endif
