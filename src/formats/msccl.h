/*
 * msccl.h — what the MSCCL writer (msccl_export.c) and reader (msccl_import.c) share: the step
 * types they know and the size limits of a program they handle.
 */
#ifndef OC_FORMATS_MSCCL_H
#define OC_FORMATS_MSCCL_H

#include <stdint.h>

#define MSCCL_MAX_GPUS 2048u
#define MSCCL_MAX_CELLS (UINT64_C(1) << 22)

enum { T_S = 0, T_R = 1, T_RRC = 2, T_NOP = 3 };

#endif
