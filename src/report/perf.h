/*
 * perf.h — nccl-tests' report (perf.c): the columns, the bus-bandwidth factors and how a row's
 * size and count follow from opticoll's SIZE. The functions are public (opticoll_studies.h, and
 * opticoll_json.h for a row as JSON): `opticoll perf` and `opticoll-mpi --perf` print with them.
 */
#ifndef OC_REPORT_PERF_H
#define OC_REPORT_PERF_H

#include "core/json.h"
#include "opticoll_json.h"
#include "opticoll_studies.h"

#endif
