/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwtpu_smi.h - the parts of pwtpu-smi in files of their own.
 */
#ifndef PWTPU_SMI_H
#define PWTPU_SMI_H

#include <stdbool.h>

/*
 * `pwtpu-smi --topo`: draw the mesh of devices @idx[0..n-1] (n >= 1,
 * ascending) and their link traffic, or print it as JSON. Exit status.
 */
int smi_topo(const unsigned int *idx, int n, bool json);

#endif /* PWTPU_SMI_H */
