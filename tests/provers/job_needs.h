/* The memory a prover's estimate charges a job, read from the engine's
 * refusal of it against a budget too small for any partition ("the job
 * needs N bytes"): shared by the provers' memory tests. */
#ifndef CUZK_TESTS_PROVERS_JOB_NEEDS_H
#define CUZK_TESTS_PROVERS_JOB_NEEDS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/engine.h"

/* Submits r to e (started, with a small budget), awaits it and returns the
 * bytes its refusal names (0, and a failed check, when it was not refused
 * so): at the pipeline's window, which the refusal names where it differs
 * from the one partition in flight the engine tried last. */
static inline unsigned long long job_needs(cz_engine *e, const cz_job_request *r) {
  char job[CZ_JOB_ID_MAX], msg[512] = "";
  CHECK_EQ_INT(cz_engine_submit(e, r, job, NULL, msg, sizeof msg), CZ_OK);
  if (*msg) fprintf(stderr, "%s: submit: %s\n", r->request_id, msg);
  cz_job_result res;
  CHECK_EQ_INT(cz_engine_await(e, r->request_id, 0, &res), CZ_OK);
  free(res.proof);
  unsigned long long n = 0;
  CHECK_EQ_INT(res.status, CZ_JOB_FAILED);
  CHECK(sscanf(res.error, "the job needs %llu bytes", &n) == 1);
  const char *wide = strstr(res.error, "in flight (");
  if (wide) CHECK(sscanf(wide, "in flight (%llu with", &n) == 1);
  if (!n) fprintf(stderr, "%s: %s\n", r->request_id, res.error);
  return n;
}
#endif
