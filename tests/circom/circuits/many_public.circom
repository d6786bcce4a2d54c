pragma circom 2.0.0;
// Many public inputs: N public values in[i], constrained as
// acc_{i+1} = acc_i * in[i] + in[i] (acc_0 = 1), with acc_N the output.
template ManyPublic(N) {
    signal input in[N];
    signal output out;
    signal acc[N + 1];
    acc[0] <== 1;
    for (var i = 0; i < N; i++) {
        acc[i + 1] <== acc[i] * in[i] + in[i];
    }
    out <== acc[N];
}
