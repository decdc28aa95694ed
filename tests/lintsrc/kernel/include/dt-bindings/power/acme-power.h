/* SPDX-License-Identifier: MIT */
/* Domain numbers of the ACME test SoC's power controller. */
#ifndef _DT_BINDINGS_POWER_ACME_H
#define _DT_BINDINGS_POWER_ACME_H
#define ACME_PD_GPU	0
#define ACME_PD_VPU	1
#endif
