/* cuzk-bench subcommands: each takes the arguments after its own name
 * (argv[0] is the subcommand) and returns the process exit status. */
#ifndef CUZK_TOOLS_BENCH_COMMANDS_H
#define CUZK_TOOLS_BENCH_COMMANDS_H
#include "common/bench_commands.h"

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} cz_bench_command;

/* The registry, terminated by a zero entry (main.c). */
extern const cz_bench_command cz_bench_commands[];

/* The subcommands of tools/cuzk-bench (bench/common/bench_commands.h has
 * the benchmarks). */
int cmd_verify(int argc, char **argv);      /* tools/cuzk-bench/cmd_verify.c */
int cmd_gen_vanilla(int argc, char **argv); /* tools/cuzk-bench/cmd_gen_vanilla.c */
/* gen-vanilla winning-post|window-post (argv[0] is the kind). */
int cmd_gen_vanilla_post(int argc, char **argv); /* tools/cuzk-bench/cmd_gen_vanilla_post.c */
int cmd_gen_vanilla_snap(int argc, char **argv); /* tools/cuzk-bench/cmd_gen_vanilla_snap.c */
int cmd_verify_vanilla(int argc, char **argv);   /* tools/cuzk-bench/cmd_verify_vanilla.c */
int cmd_synth_only(int argc, char **argv);       /* tools/cuzk-bench/cmd_synth_only.c */
int cmd_pce(int argc, char **argv);              /* tools/cuzk-bench/cmd_pce.c */
int cmd_porep_challenges(int argc, char **argv); /* tools/cuzk-bench/cmd_porep_challenges.c */
int cmd_verify_seal(int argc, char **argv);      /* tools/cuzk-bench/cmd_verify_seal.c */
int cmd_porep_inputs(int argc, char **argv);     /* tools/cuzk-bench/cmd_verify_seal.c */
int cmd_sdr_parents(int argc, char **argv);      /* tools/cuzk-bench/cmd_verify_seal.c */
int cmd_prove(int argc, char **argv);            /* tools/cuzk-bench/cmd_prove.c */
int cmd_c1_parse(int argc, char **argv);         /* tools/cuzk-bench/cmd_c1_parse.c */
int cmd_circuit_info(int argc, char **argv);     /* tools/cuzk-bench/cmd_circuit_info.c */
int cmd_verify_post(int argc, char **argv);      /* tools/cuzk-bench/cmd_verify_post.c */
int cmd_verify_update(int argc, char **argv);    /* tools/cuzk-bench/cmd_verify_update.c */
int cmd_post_inputs(int argc, char **argv);      /* tools/cuzk-bench/cmd_verify_post.c */
int cmd_zkey_setup(int argc, char **argv);       /* tools/cuzk-bench/cmd_zkey_setup.c */
int cmd_setup(int argc, char **argv);            /* tools/cuzk-bench/cmd_setup.c */

/* tools/cuzk-bench/client/: daemon commands (cmd_client.c, cmd_client_prove.c) */
#ifdef CUZK_HAVE_GRPC
int cmd_client_status(int argc, char **argv);
int cmd_client_metrics(int argc, char **argv);
int cmd_client_preload(int argc, char **argv);
int cmd_client_evict(int argc, char **argv);
int cmd_client_single(int argc, char **argv);
int cmd_client_batch(int argc, char **argv);
#endif

#endif
