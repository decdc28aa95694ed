/* SPDX-License-Identifier: MIT */
/* What startup.c gives the Cortex-M4 smoke test. */
#ifndef DOMINO_TESTS_FIRMWARE_SMOKE_H
#define DOMINO_TESTS_FIRMWARE_SMOKE_H

/* Write @s to the emulator's standard output (semihosting SYS_WRITE0). */
void smoke_puts(const char *s);
/* End the run: the emulator exits 0 if @ok, else non-zero (SYS_EXIT). */
void smoke_exit(int ok) __attribute__((noreturn));

#endif
