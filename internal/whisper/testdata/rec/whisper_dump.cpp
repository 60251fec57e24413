// whisper_dump: record whisper.cpp's encoder output, first decoder logits
// and greedy token sequence for a model file and a 16-bit 16 kHz WAV.
// Includes whisper.cpp's own source to reach the encoder output tensor.
#include "whisper.cpp"
#include <cstdio>
#include <cstdlib>
#include <vector>

static std::vector<float> read_wav16(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    std::vector<unsigned char> b;
    unsigned char buf[65536]; size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
    fclose(f);
    size_t off = 12;
    while (off + 8 <= b.size()) {
        uint32_t sz = b[off+4] | b[off+5] << 8 | b[off+6] << 16 | (uint32_t)b[off+7] << 24;
        if (memcmp(&b[off], "data", 4) == 0) {
            std::vector<float> s(sz / 2);
            for (size_t i = 0; i < s.size(); i++) s[i] = (int16_t)(b[off+8+2*i] | b[off+9+2*i] << 8) / 32768.0f;
            return s;
        }
        off += 8 + sz + (sz & 1);
    }
    fprintf(stderr, "%s: no data chunk\n", path); exit(1);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: whisper_dump model.bin audio.wav [threads [flash_attn [greedy]]]\n"); return 2; }
    int nt = argc > 3 ? atoi(argv[3]) : 1;
    whisper_context_params cp = whisper_context_default_params();
    cp.use_gpu = false;
    if (argc > 4) cp.flash_attn = atoi(argv[4]) != 0;
    bool greedy = argc > 5 ? atoi(argv[5]) != 0 : true;
    whisper_context *ctx = whisper_init_from_file_with_params(argv[1], cp);
    if (!ctx) return 1;
    std::vector<float> pcm = read_wav16(argv[2]);
    printf("flash_attn %d\n", (int) cp.flash_attn);
    if (whisper_pcm_to_mel(ctx, pcm.data(), pcm.size(), nt) != 0) return 1;
    int64_t t0 = ggml_time_us();
    if (whisper_encode(ctx, 0, nt) != 0) return 1;
    fprintf(stderr, "encode_ms %.1f\n", (ggml_time_us() - t0) / 1000.0);

    ggml_tensor *enc = ctx->state->embd_enc;
    int n_state = enc->ne[0], n_ctx = enc->ne[1];
    std::vector<float> e(n_state * n_ctx);
    ggml_backend_tensor_get(enc, e.data(), 0, e.size() * sizeof(float));
    printf("enc %d %d\n", n_ctx, n_state);
    int pos[] = {0, 1, 2, 100, 550, 1000, 1499};
    for (int p : pos) {
        printf("enc_pos %d", p);
        for (int j = 0; j < n_state; j++) printf(" %.7g", e[p * n_state + j]);
        printf("\n");
    }
    double all = 0, all2 = 0;
    for (int p = 0; p < n_ctx; p++) {
        double s = 0, s2 = 0;
        for (int j = 0; j < n_state; j++) { s += e[p*n_state+j]; s2 += (double) e[p*n_state+j]*e[p*n_state+j]; }
        printf("enc_sum %d %.9g %.9g\n", p, s, s2);
        all += s; all2 += s2;
    }
    printf("enc_total %.12g %.12g\n", all, all2);

    // First decoder step on the prompt <|startoftranscript|><|en|><|transcribe|><|notimestamps|>.
    whisper_token prompt[4] = { whisper_token_sot(ctx), whisper_token_lang(ctx, whisper_lang_id("en")),
                                whisper_token_transcribe(ctx), whisper_token_not(ctx) };
    printf("prompt %d %d %d %d\n", prompt[0], prompt[1], prompt[2], prompt[3]);
    t0 = ggml_time_us();
    if (whisper_decode(ctx, prompt, 4, 0, nt) != 0) return 1;
    fprintf(stderr, "decode4_ms %.1f\n", (ggml_time_us() - t0) / 1000.0);
    int nv = whisper_n_vocab(ctx);
    const float *lg = whisper_get_logits(ctx) + 3 * nv;
    double ls = 0, ls2 = 0; int am = 0;
    for (int i = 0; i < nv; i++) { ls += lg[i]; ls2 += (double) lg[i]*lg[i]; if (lg[i] > lg[am]) am = i; }
    printf("logits %d argmax %d max %.7g sum %.9g sumsq %.9g\n", nv, am, lg[am], ls, ls2);
    printf("logits_at");
    for (int i = 0; i < nv; i += 997) printf(" %d:%.7g", i, lg[i]);
    for (int i = nv - 1610; i < nv; i += 97) printf(" %d:%.7g", i, lg[i]);
    printf("\n");

    // Greedy decoding, English, no timestamps, no temperature fallback.
    if (!greedy) { whisper_free(ctx); return 0; }
    whisper_full_params fp = whisper_full_default_params(WHISPER_SAMPLING_GREEDY);
    fp.n_threads = nt; fp.language = "en"; fp.no_timestamps = true; fp.single_segment = true;
    fp.temperature_inc = 0.0f; fp.print_progress = false; fp.print_realtime = false; fp.print_timestamps = false;
    fp.print_special = false;
    t0 = ggml_time_us();
    if (whisper_full(ctx, fp, pcm.data(), pcm.size()) != 0) return 1;
    fprintf(stderr, "full_ms %.1f\n", (ggml_time_us() - t0) / 1000.0);
    for (int s = 0; s < whisper_full_n_segments(ctx); s++) {
        printf("greedy_segment %d tokens", s);
        for (int i = 0; i < whisper_full_n_tokens(ctx, s); i++) printf(" %d", whisper_full_get_token_id(ctx, s, i));
        printf("\n");
    }
    whisper_print_timings(ctx);
    whisper_free(ctx);
    return 0;
}
