/*
 * report.h — the report room: a run's result (core/result.h) written as JSON, text or CSV
 * (report.c, the public oc_report_write_*).
 * Everything here reads results; nothing below the room calls into it.
 */
#ifndef OC_REPORT_H
#define OC_REPORT_H

#include "core/json.h"
#include "core/result.h"

#include <stdio.h>

/* The report as a cJSON tree (what oc_report_write_json prints), for writers that nest it (the
 * training study's runs); NULL when memory ran out. */
cJSON *oc__report_json(const oc_report *r);

#endif
