/* cuzk vs blst in ONE process, alternating short batches of the same
 * operation, thread CPU time; prints median ns/op of each and the median of
 * the per-batch-pair ratios (robust to load drifting between runs).
 *
 * Not part of the cuzk build (CMake does not glob this directory) and no
 * blst code is in it: it only calls blst's public API, against a blst built
 * outside the repository. Build and run: see bench/ec/README.md. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "blst.h"
#include "cuzk/pairing.h"
#include "cuzk/cpu.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t);return t.tv_sec*1e9+t.tv_nsec;}
static int cmpd(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
/* blst state */
static blst_fp X,Y; static blst_fr XR,YR; static blst_fp12 F; static blst_fp2 X2,Y2;
static blst_p1 P1,Q1; static blst_p1_affine Q1A,D1; static blst_p2 P2,Q2; static blst_p2_affine Q2A,D2;
static unsigned char C1[48],C2[96],SC[32];
/* cuzk state */
static cz_fp cx,cy; static cz_fr rx,ry; static cz_fp2 c2x,c2y; static cz_fp12 cf;
static cz_g1 g1p,g1q; static cz_g1_affine g1qa,g1d; static cz_g2 g2p,g2q; static cz_g2_affine g2qa,g2d;
static cz_scalar sc; static uint8_t e1[48],e2[96];

#define LOOP(...) for(long i=0;i<n;i++){__VA_ARGS__;}
static void b_fp_mul(long n){LOOP(blst_fp_mul(&X,&X,&Y))}           static void c_fp_mul(long n){LOOP(cz_fp_mul(&cx,&cx,&cy))}
static void b_fr_mul(long n){LOOP(blst_fr_mul(&XR,&XR,&YR))}        static void c_fr_mul(long n){LOOP(cz_fr_mul(&rx,&rx,&ry))}
static void b_fp2_mul(long n){LOOP(blst_fp2_mul(&X2,&X2,&Y2))}      static void c_fp2_mul(long n){LOOP(cz_fp2_mul(&c2x,&c2x,&c2y))}
static void b_fp2_sqr(long n){LOOP(blst_fp2_sqr(&X2,&X2))}          static void c_fp2_sqr(long n){LOOP(cz_fp2_sqr(&c2x,&c2x))}
static void b_g1_add(long n){LOOP(blst_p1_add_or_double(&P1,&P1,&Q1))} static void c_g1_add(long n){LOOP(cz_g1_add(&g1p,&g1p,&g1q))}
static void b_g1_dbl(long n){LOOP(blst_p1_double(&P1,&P1))}         static void c_g1_dbl(long n){LOOP(cz_g1_dbl(&g1p,&g1p))}
static void b_g1_madd(long n){LOOP(blst_p1_add_or_double_affine(&P1,&P1,&Q1A))} static void c_g1_madd(long n){LOOP(cz_g1_add_affine(&g1p,&g1p,&g1qa))}
static void b_g2_add(long n){LOOP(blst_p2_add_or_double(&P2,&P2,&Q2))} static void c_g2_add(long n){LOOP(cz_g2_add(&g2p,&g2p,&g2q))}
static void b_g2_dbl(long n){LOOP(blst_p2_double(&P2,&P2))}         static void c_g2_dbl(long n){LOOP(cz_g2_dbl(&g2p,&g2p))}
static void b_g2_madd(long n){LOOP(blst_p2_add_or_double_affine(&P2,&P2,&Q2A))} static void c_g2_madd(long n){LOOP(cz_g2_add_affine(&g2p,&g2p,&g2qa))}
static void b_g1_dec(long n){LOOP(if(blst_p1_uncompress(&D1,C1)||!blst_p1_affine_in_g1(&D1))abort())}
static void c_g1_dec(long n){LOOP(if(cz_g1_affine_decompress(&g1d,e1,true))abort())}
static void b_g1_decn(long n){LOOP(if(blst_p1_uncompress(&D1,C1))abort())}
static void c_g1_decn(long n){LOOP(if(cz_g1_affine_decompress(&g1d,e1,false))abort())}
static void b_g2_dec(long n){LOOP(if(blst_p2_uncompress(&D2,C2)||!blst_p2_affine_in_g2(&D2))abort())}
static void c_g2_dec(long n){LOOP(if(cz_g2_affine_decompress(&g2d,e2,true))abort())}
static void b_g2_decn(long n){LOOP(if(blst_p2_uncompress(&D2,C2))abort())}
static void c_g2_decn(long n){LOOP(if(cz_g2_affine_decompress(&g2d,e2,false))abort())}
static void b_g1_mul(long n){LOOP(blst_p1_mult(&P1,&P1,SC,255))}    static void c_g1_mul(long n){LOOP(cz_g1_mul(&g1p,&g1p,&sc))}
static void b_g2_mul(long n){LOOP(blst_p2_mult(&P2,&P2,SC,255))}    static void c_g2_mul(long n){LOOP(cz_g2_mul(&g2p,&g2p,&sc))}
static void b_miller(long n){LOOP(blst_fp12 m;blst_miller_loop(&m,&Q2A,&Q1A);blst_fp12_mul(&F,&F,&m))}
static void c_miller(long n){LOOP(cz_fp12 m;cz_miller_loop(&m,&g1qa,&g2qa,1);cz_fp12_mul(&cf,&cf,&m))}
static void b_fexp(long n){LOOP(blst_final_exp(&F,&F))}             static void c_fexp(long n){LOOP(cz_final_exponentiation(&cf,&cf))}
static void b_pair(long n){LOOP(blst_fp12 m,e;blst_miller_loop(&m,&Q2A,&Q1A);blst_final_exp(&e,&m);((unsigned char*)&F)[0]^=((unsigned char*)&e)[0])}
static void c_pair(long n){LOOP(cz_fp12 e;cz_pairing(&e,&g1qa,&g2qa);cf.c0.c0.c0.l[0]^=e.c0.c0.c0.l[0])}
struct op{const char*name;void(*c)(long);void(*b)(long);long div;};
static const struct op T[]={
 {"fp_mul",c_fp_mul,b_fp_mul,1},{"fr_mul",c_fr_mul,b_fr_mul,1},{"fp2_mul",c_fp2_mul,b_fp2_mul,3},{"fp2_sqr",c_fp2_sqr,b_fp2_sqr,2},
 {"g1_add",c_g1_add,b_g1_add,16},{"g1_dbl",c_g1_dbl,b_g1_dbl,7},{"g1_madd",c_g1_madd,b_g1_madd,11},
 {"g2_add",c_g2_add,b_g2_add,45},{"g2_dbl",c_g2_dbl,b_g2_dbl,18},{"g2_madd",c_g2_madd,b_g2_madd,32},
 {"g1_decompress",c_g1_dec,b_g1_dec,1500},{"g1_decompress_nocheck",c_g1_decn,b_g1_decn,500},
 {"g2_decompress",c_g2_dec,b_g2_dec,2500},{"g2_decompress_nocheck",c_g2_decn,b_g2_decn,1000},
 {"g1_mul",c_g1_mul,b_g1_mul,2000},{"g2_mul",c_g2_mul,b_g2_mul,4000},
 {"miller_loop",c_miller,b_miller,8000},{"final_exp",c_fexp,b_fexp,10000},{"pairing",c_pair,b_pair,18000},{0,0,0,0}};
int main(int argc,char**argv){
  long iters=20000; int reps=31; const char*filt=NULL;
  for(int i=1;i<argc;i++){ if(!strcmp(argv[i],"--iters"))iters=atol(argv[++i]); else if(!strcmp(argv[i],"--filter"))filt=argv[++i]; else if(!strcmp(argv[i],"--reps"))reps=atoi(argv[++i]);}
  if(reps>101)reps=101;
  uint64_t v[6]={0x123456789abcdefULL,2,3,4,5,6}; blst_fp_from_uint64(&X,v); v[0]=77; blst_fp_from_uint64(&Y,v);
  X2.fp[0]=X;X2.fp[1]=Y;Y2.fp[0]=Y;blst_fp_sqr(&Y2.fp[1],&Y);
  uint64_t w[4]={0x1234567,9,8,7}; blst_fr_from_uint64(&XR,w); w[0]=99; blst_fr_from_uint64(&YR,w);
  for(int i=0;i<32;i++)SC[i]=(unsigned char)(i*37+11); SC[31]&=0x3f;
  blst_p1_double(&P1,blst_p1_generator()); blst_p1_mult(&Q1,blst_p1_generator(),SC,255); blst_p1_to_affine(&Q1A,&Q1); blst_p1_double(&Q1,&Q1);
  blst_p2_double(&P2,blst_p2_generator()); blst_p2_mult(&Q2,blst_p2_generator(),SC,255); blst_p2_to_affine(&Q2A,&Q2); blst_p2_double(&Q2,&Q2);
  blst_p1_affine_compress(C1,&Q1A); blst_p2_affine_compress(C2,&Q2A); blst_miller_loop(&F,&Q2A,&Q1A);
  /* cuzk: the same points (the same scalar, little-endian limbs) */
  cz_fp_from_u64(&cx,0x0123456789abcdefULL); cz_fp_from_u64(&cy,77); cz_fp_inv(&cy,&cy);
  c2x.c0=cx;c2x.c1=cy;c2y.c0=cy;cz_fp_sqr(&c2y.c1,&cy);
  cz_fr_from_u64(&rx,0x1234567); cz_fr_from_u64(&ry,99); cz_fr_inv(&ry,&ry);
  for(int i=0;i<4;i++){uint64_t l=0;for(int k=7;k>=0;k--)l=(l<<8)|SC[8*i+k];sc.l[i]=l;}
  cz_g1 g; cz_g1_from_affine(&g,&CZ_G1_GENERATOR); cz_g1_dbl(&g1p,&g); cz_g1_mul(&g1q,&g,&sc); cz_g1_to_affine(&g1qa,&g1q); cz_g1_dbl(&g1q,&g1q);
  cz_g2 h; cz_g2_from_affine(&h,&CZ_G2_GENERATOR); cz_g2_dbl(&g2p,&h); cz_g2_mul(&g2q,&h,&sc); cz_g2_to_affine(&g2qa,&g2q); cz_g2_dbl(&g2q,&g2q);
  cz_g1_affine_compress(e1,&g1qa); cz_g2_affine_compress(e2,&g2qa);
  if(memcmp(e1,C1,48)||memcmp(e2,C2,96)){fprintf(stderr,"point mismatch\n");return 1;}
  cz_miller_loop(&cf,&g1qa,&g2qa,1);
  printf("# adx %d; per rep: a batch of cuzk then a batch of blst; medians over %d reps\n",cz_cpu_use_adx(),reps);
  printf("# %-22s %12s %12s %7s %7s\n","op","cuzk_ns","blst_ns","ratio","r_iqr");
  for(const struct op*t=T;t->name;t++){ if(filt&&!strstr(t->name,filt))continue;
    long n=iters/t->div; if(n<1)n=1; double sc_[101],sb[101],r[101];
    t->c(n/4+1); t->b(n/4+1);
    for(int k=0;k<reps;k++){ double t0=now(); t->c(n); double t1=now(); t->b(n); double t2=now();
      sc_[k]=(t1-t0)/n; sb[k]=(t2-t1)/n; r[k]=sc_[k]/sb[k]; }
    qsort(sc_,reps,sizeof(double),cmpd); qsort(sb,reps,sizeof(double),cmpd); qsort(r,reps,sizeof(double),cmpd);
    printf("%-24s %12.1f %12.1f %7.3f %.3f-%.3f\n",t->name,sc_[reps/2],sb[reps/2],r[reps/2],r[reps/4],r[3*reps/4]); fflush(stdout);}
  printf("# sink %x %llx\n",((unsigned char*)&F)[0]^((unsigned char*)&P1)[0]^((unsigned char*)&P2)[0]^((unsigned char*)&D1)[0]^((unsigned char*)&D2)[0]^((unsigned char*)&X2)[0]^((unsigned char*)&X)[0]^((unsigned char*)&XR)[0],
    (unsigned long long)(cx.l[0]^rx.l[0]^c2x.c0.l[0]^g1p.x.l[0]^g2p.x.c0.l[0]^g1d.x.l[0]^g2d.x.c0.l[0]^cf.c0.c0.c0.l[0]));
  return 0;}
