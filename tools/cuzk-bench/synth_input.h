/* Inputs of the real shape for the synthesis benchmarks (synth-only,
 * circuit-info --witness/--prove): one partition of a PoRep, WinningPoSt,
 * WindowPoSt or SnapDeals circuit at any registered sector size, from a C1
 * file, a 2 KiB sector sealed in process, or pseudo-random values shaped as
 * the vanilla proofs are. The random ones are not proofs (their circuits
 * are not satisfied) but synthesis accepts them and does the same work:
 * the same gadgets, hashes and bit decompositions, the same share of 0/1
 * values. */
#ifndef CUZK_BENCH_SYNTH_INPUT_H
#define CUZK_BENCH_SYNTH_INPUT_H
#include <stdint.h>
#include "cuzk/cs.h"

typedef enum { SYN_POREP, SYN_WINNING, SYN_WINDOW, SYN_UPDATE } syn_circuit;

typedef struct synth_input synth_input;

/* "porep", "winning-post", "window-post", "update"; false for another. */
bool synth_circuit_parse(const char *name, syn_circuit *out);

/* What to build: sector_size 0 means 2 KiB (PoRep: a sector sealed in
 * process, with real data; else random); c1_path (PoRep only) a C1 file
 * instead; partition: which PoRep partition; post_sectors and
 * post_challenges: PoSt sector slots and challenges per slot in place of
 * the registered counts (0: registered; a shape is recorded only for
 * those). */
typedef struct {
  syn_circuit kind;
  uint64_t sector_size;
  const char *c1_path;
  uint32_t partition;
  size_t post_sectors, post_challenges; /* PoSt: 0 = registered */
  unsigned threads;                     /* for sealing */
} synth_spec;

/* Builds the input; NULL with why set on failure (unknown size, a C1 that
 * does not load, no such partition, out of memory). */
synth_input *synth_input_make(const synth_spec *spec, char *why, size_t whylen);
void synth_input_free(synth_input *in);

/* The circuit's registered name ("StackedDrg32GiBV1_1", ...). */
const char *synth_input_name(const synth_input *in);

/* A finished PROVE or WITNESS assignment of the partition (cfg: the LC
 * layout, NULL default), its slots on n_threads; with shape, a WITNESS run
 * completed by cz_pce_eval on the same budget. Errors as the library's, msg
 * naming the cause. */
cz_err synth_input_run(const synth_input *in, cz_cs_mode mode, const cz_cs_config *cfg,
                       const cz_pce *shape, unsigned n_threads, cz_assignment *out, char *msg,
                       size_t msg_len);

/* TEST-mode synthesis of the PoRep partition (bellpepper's
 * TestConstraintSystem: every constraint kept with its name, so several
 * times a PROVE run's memory), or with challenge >= 0 of the partition's
 * header and that challenge alone (a 32 GiB challenge is 1/18 of its
 * partition), then whether every constraint holds: 0
 * ("satisfied yes" on stdout), 1 ("unsatisfied constraint N of M: NAME", the
 * first, one line), 2 when the input is not PoRep or synthesis fails (a line on
 * stderr). */
int synth_input_check(const synth_input *in, long challenge);

/* The circuit's recorded shape (RECORD). CZ_ERR_INVALID_ARG for a PoSt
 * with another sector count than the registered one. */
cz_err synth_input_record(const synth_input *in, cz_pce **out, char *msg, size_t msg_len);

#endif
