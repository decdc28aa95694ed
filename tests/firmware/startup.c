/* SPDX-License-Identifier: MIT */
/*
 * Bare-metal start of the Cortex-M4 smoke test (tests/firmware/smoke.c):
 * the vector table, a reset handler that lays out .data and .bss and runs
 * main(), the heap newlib's malloc grows into, and the two Arm semihosting
 * calls the test needs: SYS_WRITE0 (text to QEMU's stdout) and SYS_EXIT
 * (QEMU exits 0 on ADP_Stopped_ApplicationExit, 1 on any other reason).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "smoke.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, __stack_top;
extern char end, __heap_limit;

int main(void);

#define SYS_WRITE0 0x04u
#define SYS_EXIT 0x18u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define ADP_STOPPED_RUN_TIME_ERROR 0x20023u

static uintptr_t semihost(uintptr_t op, uintptr_t arg)
{
	register uintptr_t r0 __asm__("r0") = op;
	register uintptr_t r1 __asm__("r1") = arg;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

void smoke_puts(const char *s)
{
	semihost(SYS_WRITE0, (uintptr_t)s);
}

void smoke_exit(int ok)
{
	semihost(SYS_EXIT, ok ? ADP_STOPPED_APPLICATION_EXIT
			      : ADP_STOPPED_RUN_TIME_ERROR);
	for (;;)
		; /* not reached: QEMU has exited */
}

/* newlib's malloc grows the heap through this; the last 64 KiB below the
 * top of RAM stay the stack's. */
void *_sbrk(ptrdiff_t incr);
void *_sbrk(ptrdiff_t incr)
{
	static char *brk = &end;
	if (incr > &__heap_limit - brk) {
		errno = ENOMEM;
		return (void *)-1;
	}
	char *old = brk;
	brk += incr;
	return old;
}

static void fault(void)
{
	smoke_puts("smoke: FAIL: processor fault\n");
	smoke_exit(0);
}

static void reset(void)
{
	uint32_t *src = &_sidata;
	for (uint32_t *dst = &_sdata; dst < &_edata;)
		*dst++ = *src++;
	for (uint32_t *dst = &_sbss; dst < &_ebss;)
		*dst++ = 0;
	smoke_exit(main() == 0);
}

/* Initial stack pointer, reset, NMI, then the four fault handlers. */
__attribute__((section(".vectors"), used))
static const void *const vectors[] = {
	&__stack_top, (const void *)reset, (const void *)fault,
	(const void *)fault, (const void *)fault, (const void *)fault,
	(const void *)fault,
};
