/* The benchmark subcommands of cuzk-bench, one per bench/<area>/ source:
 * each takes the arguments after its own name (argv[0] is the subcommand)
 * and returns the process exit status. tools/cuzk-bench lists them in its
 * registry. */
#ifndef CUZK_BENCH_COMMANDS_H
#define CUZK_BENCH_COMMANDS_H

int cz_bench_cmd_cs(int argc, char **argv);           /* bench/cs/bench_cs.c */
int cz_bench_cmd_ec(int argc, char **argv);           /* bench/ec/bench_ec.c */
int cz_bench_cmd_ntt(int argc, char **argv);          /* bench/ntt/bench_ntt.c */
int cz_bench_cmd_msm(int argc, char **argv);          /* bench/msm/bench_msm.c */
int cz_bench_cmd_poseidon(int argc, char **argv);     /* bench/hash/bench_poseidon.c */
int cz_bench_cmd_sha256(int argc, char **argv);       /* bench/gadgets/bench_sha256.c */
int cz_bench_cmd_seal(int argc, char **argv);         /* bench/filecoin/bench_seal.c */
int cz_bench_cmd_pool(int argc, char **argv);         /* bench/util/bench_pool.c */
int cz_bench_cmd_param_digest(int argc, char **argv); /* bench/filecoin/bench_param_digest.c */

#endif
