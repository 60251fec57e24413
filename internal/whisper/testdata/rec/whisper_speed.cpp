// whisper_speed: time whisper.cpp's encoder (one 30 s window) and decoder
// (single-token steps with logits, positions 4–67, after a 4-token prompt)
// on a model file and a WAV, wall clock and process CPU time.
#include "whisper.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <chrono>
#include <sys/resource.h>

static double cpu_s() {
    struct rusage r; getrusage(RUSAGE_SELF, &r);
    return r.ru_utime.tv_sec + r.ru_stime.tv_sec + 1e-6 * (r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}
static double wall_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: whisper_speed model.bin threads n_tokens [flash]\n"); return 2; }
    int nt = atoi(argv[2]), n = atoi(argv[3]);
    whisper_context_params cp = whisper_context_default_params();
    cp.use_gpu = false;
    cp.flash_attn = argc > 4 && atoi(argv[4]) != 0;
    whisper_context *ctx = whisper_init_from_file_with_params(argv[1], cp);
    if (!ctx) return 1;
    std::vector<float> pcm(16000 * 11, 0.0f);
    for (size_t i = 0; i < pcm.size(); i++) pcm[i] = 0.1f * ((i * 7919) % 200 - 100) / 100.0f;
    if (whisper_pcm_to_mel(ctx, pcm.data(), pcm.size(), nt) != 0) return 1;
    double c0 = cpu_s(), w0 = wall_s();
    if (whisper_encode(ctx, 0, nt) != 0) return 1;
    double c1 = cpu_s(), w1 = wall_s();
    whisper_token prompt[4] = { whisper_token_sot(ctx), whisper_token_lang(ctx, 0), whisper_token_transcribe(ctx), whisper_token_beg(ctx) };
    if (whisper_decode(ctx, prompt, 4, 0, nt) != 0) return 1;
    double c2 = cpu_s(), w2 = wall_s();
    for (int i = 0; i < n; i++) {
        whisper_token t = 400 + i % 64;
        if (whisper_decode(ctx, &t, 1, 4 + i % 64, nt) != 0) return 1;
    }
    double c3 = cpu_s(), w3 = wall_s();
    printf("encode wall %.3f s cpu %.3f s\n", w1 - w0, c1 - c0);
    printf("decode %d tokens wall %.2f ms/token cpu %.2f ms/token\n", n, 1e3 * (w3 - w2) / n, 1e3 * (c3 - c2) / n);
    whisper_free(ctx);
    return 0;
}
