/*
 * report.h — the report room: a run's result (core/result.h) written as JSON, text or CSV
 * (report.c, the public oc_report_write_*).
 * Everything here reads results; nothing below the room calls into it.
 */
#ifndef OC_REPORT_H
#define OC_REPORT_H

#include "core/result.h"

#include <stdio.h>

/* JSON output helper shared by the report and the schedule exporter (strings: the public
 * oc_write_json_string). */
void oc__json_kv(FILE *f, const oc_kv *kv);

#endif
