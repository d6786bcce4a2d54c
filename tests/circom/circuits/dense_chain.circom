pragma circom 2.0.0;
// A MiMC-style permutation chain: x <- (x + k + c_i)^7 for i = 1..N, four
// multiplications a round, so that every wire past the first rounds is a
// full-width field element (a dense witness). k is public, x private, the
// last x is the public output. The round constants c_i = i^3 + 7 are fixed
// at compile time.
template DenseChain(N) {
    signal input x;
    signal input k;
    signal output out;
    signal t2[N];
    signal t4[N];
    signal t6[N];
    signal v[N + 1];
    v[0] <== x;
    for (var i = 0; i < N; i++) {
        var c = (i + 1) * (i + 1) * (i + 1) + 7;
        t2[i] <== (v[i] + k + c) * (v[i] + k + c);
        t4[i] <== t2[i] * t2[i];
        t6[i] <== t4[i] * t2[i];
        v[i + 1] <== t6[i] * (v[i] + k + c);
    }
    out <== v[N];
}
