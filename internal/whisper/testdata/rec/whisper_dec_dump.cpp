// whisper_dec_dump: record whisper.cpp's decoder on a model file and a 16-bit
// 16 kHz WAV: logits step by step on a fixed token sequence (KV cache),
// language-token logits, tokenizer output, and whisper_full token sequences
// under several settings. Uses the public API only (whisper.h), CPU, the
// non-flash attention path unless asked otherwise.
#include "whisper.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
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

static void print_logits(const char *tag, int step, const float *lg, int nv) {
    double ls = 0, ls2 = 0; int am = 0;
    for (int i = 0; i < nv; i++) { ls += lg[i]; ls2 += (double) lg[i]*lg[i]; if (lg[i] > lg[am]) am = i; }
    printf("%s %d argmax %d max %.7g sum %.9g sumsq %.9g at", tag, step, am, lg[am], ls, ls2);
    for (int i = 0; i < nv; i += 997) printf(" %d:%.7g", i, lg[i]);
    for (int i = nv - 1610; i < nv; i += 97) printf(" %d:%.7g", i, lg[i]);
    printf("\n");
}

// Adds a constant to every timestamp token's logit, so that random-weight
// models emit timestamps and the timestamp rules come into play.
static float g_ts_bias = 0;
// When g_vocab_n > 0 it also keeps only the text tokens g_vocab_lo …
// g_vocab_lo+g_vocab_n−1 and <|endoftext|>: every other token below the
// timestamps gets −∞.
static int g_vocab_n = 0, g_vocab_lo = 0;
static void ts_bias(struct whisper_context *ctx, struct whisper_state *, const whisper_token_data *, int, float *logits, void *) {
    if (g_vocab_n > 0) {
        const int eot = whisper_token_eot(ctx);
        for (int i = 0; i < whisper_token_beg(ctx); i++) {
            if (i != eot && (i < g_vocab_lo || i >= g_vocab_lo + g_vocab_n)) logits[i] = -INFINITY;
        }
    }
    if (g_ts_bias == 0) return;
    for (int i = whisper_token_beg(ctx); i < whisper_n_vocab(ctx); i++) logits[i] += g_ts_bias;
}

static void run_full(whisper_context *ctx, const char *name, whisper_full_params fp, const std::vector<float> &pcm) {
    fp.print_progress = false; fp.print_realtime = false; fp.print_timestamps = false; fp.print_special = false;
    fp.logits_filter_callback = ts_bias;
    if (whisper_full(ctx, fp, pcm.data(), pcm.size()) != 0) { fprintf(stderr, "whisper_full failed\n"); exit(1); }
    printf("full %s lang %s segments %d\n", name, whisper_lang_str(whisper_full_lang_id(ctx)), whisper_full_n_segments(ctx));
    for (int s = 0; s < whisper_full_n_segments(ctx); s++) {
        printf("seg %s %lld %lld tokens", name, (long long) whisper_full_get_segment_t0(ctx, s), (long long) whisper_full_get_segment_t1(ctx, s));
        for (int i = 0; i < whisper_full_n_tokens(ctx, s); i++) printf(" %d", whisper_full_get_token_id(ctx, s, i));
        printf("\n");
    }
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: whisper_dec_dump model.bin audio.wav threads [long|beam [fallback]|beamvocab|fallback]\n"); return 2; }
    int nt = atoi(argv[3]);
    whisper_context_params cp = whisper_context_default_params();
    cp.use_gpu = false;
    cp.flash_attn = false;
    whisper_context *ctx = whisper_init_from_file_with_params(argv[1], cp);
    if (!ctx) return 1;
    std::vector<float> pcm = read_wav16(argv[2]);
    const int nv = whisper_n_vocab(ctx);

    // whisper_full greedy, no temperature fallback.
    whisper_full_params g = whisper_full_default_params(WHISPER_SAMPLING_GREEDY);
    g.n_threads = nt; g.temperature_inc = 0.0f; g.greedy.best_of = 1;

    if (argc > 4 && strcmp(argv[4], "beam") == 0) {
        // Beam search (5 beams; whisper.cpp's beams draw their candidates
        // with std::mt19937), on a fresh context: decoder 0's generator
        // lives as long as the state.
        // argv[5]: "fallback" keeps whisper.cpp's default temperature
        // fallback (0.2 steps, best of 5 sampled), otherwise none.
        bool fb = argc > 5 && strcmp(argv[5], "fallback") == 0;
        whisper_full_params b = whisper_full_default_params(WHISPER_SAMPLING_BEAM_SEARCH);
        b.n_threads = nt; b.language = "en"; g_ts_bias = 6;
        if (!fb) b.temperature_inc = 0.0f;
        run_full(ctx, fb ? "beam5_fallback_tsbias6" : "beam5_tsbias6", b, pcm);
        whisper_print_timings(ctx);
        whisper_free(ctx);
        return 0;
    }
    if (argc > 4 && strcmp(argv[4], "beamvocab") == 0) {
        // Beam search where the candidates are few: text restricted to
        // 32 tokens (ids 400–431) and <|endoftext|>, no timestamps. A
        // random-weight model spreads its probability nearly evenly over
        // 50 000 tokens, and whisper.cpp's beams draw
        // their candidates from that distribution, so any difference in
        // the logits moves a draw; over 33 tokens the draws are stable and
        // the beams' bookkeeping (scores, KV cache copies, ends) is what is
        // compared (no fallback: on this model every fallback run is
        // decoded at each temperature, sampled sequences rarely end, and
        // one run took more than ten minutes).
        whisper_full_params b = whisper_full_default_params(WHISPER_SAMPLING_BEAM_SEARCH);
        b.n_threads = nt; b.language = "en"; b.no_timestamps = true; b.temperature_inc = 0.0f;
        g_vocab_n = 32; g_vocab_lo = 400;
        run_full(ctx, "beam5_vocab32", b, pcm);
        whisper_print_timings(ctx);
        whisper_free(ctx);
        return 0;
    }
    if (argc > 4 && strcmp(argv[4], "fallback") == 0) {
        // Greedy with whisper.cpp's default temperature fallback (best of
        // 5 samples at 0.2, 0.4, …), on a fresh context.
        whisper_full_params f = whisper_full_default_params(WHISPER_SAMPLING_GREEDY);
        f.n_threads = nt; f.language = "en"; g_ts_bias = 6;
        run_full(ctx, "fallback_tsbias6", f, pcm);
        whisper_print_timings(ctx);
        whisper_free(ctx);
        return 0;
    }
    if (argc > 4 && strcmp(argv[4], "long") == 0) {
        // Long-form only, on a fresh context (whisper_full keeps the
        // previous call's text in its state).
        auto p = g; p.language = "en"; g_ts_bias = 6; run_full(ctx, "long_tsbias6", p, pcm);
        whisper_print_timings(ctx);
        whisper_free(ctx);
        return 0;
    }

    // Tokenizer.
    const char *texts[] = {" And so my fellow Americans", "Hello, world! It's 2026.", " ask not what your country can do for you"};
    for (const char *t : texts) {
        whisper_token tok[256];
        int n = whisper_tokenize(ctx, t, tok, 256);
        printf("tokenize \"%s\"", t);
        for (int i = 0; i < n; i++) printf(" %d", tok[i]);
        printf("\n");
    }

    if (whisper_pcm_to_mel(ctx, pcm.data(), pcm.size(), nt) != 0) return 1;
    if (whisper_encode(ctx, 0, nt) != 0) return 1;

    // Language-token logits after <|startoftranscript|>.
    whisper_token sot = whisper_token_sot(ctx);
    if (whisper_decode(ctx, &sot, 1, 0, nt) != 0) return 1;
    {
        const float *lg = whisper_get_logits(ctx);
        printf("lang_logits");
        for (int i = 0; i <= whisper_lang_max_id(); i++) printf(" %.7g", lg[whisper_token_lang(ctx, i)]);
        printf("\n");
    }

    // Teacher-forced decoding with the KV cache: a 4-token prompt, then one
    // token at a time.
    whisper_token prompt[4] = { sot, whisper_token_lang(ctx, whisper_lang_id("en")), whisper_token_transcribe(ctx), whisper_token_beg(ctx) };
    printf("prompt %d %d %d %d\n", prompt[0], prompt[1], prompt[2], prompt[3]);
    if (whisper_decode(ctx, prompt, 4, 0, nt) != 0) return 1;
    print_logits("step", 0, whisper_get_logits(ctx) + 3*nv, nv); // whisper_decode keeps the logits of every batch row
    whisper_token forced[] = { 400, 370, 452, 7177, 6280, 11, 1029, 406, 50414, 50414, 437, 428 };
    printf("forced");
    for (whisper_token t : forced) printf(" %d", t);
    printf("\n");
    int n_past = 4;
    for (size_t i = 0; i < sizeof forced / sizeof forced[0]; i++) {
        if (whisper_decode(ctx, &forced[i], 1, n_past, nt) != 0) return 1;
        n_past++;
        print_logits("step", (int) i + 1, whisper_get_logits(ctx), nv);
    }

    // whisper_full under several settings.

    { auto p = g; p.language = "en"; p.no_timestamps = true; p.single_segment = true; run_full(ctx, "notimestamps", p, pcm); }
    { auto p = g; p.language = "en"; g_ts_bias = 0; run_full(ctx, "timestamps", p, pcm); }
    { auto p = g; p.language = "en"; g_ts_bias = 6; run_full(ctx, "tsbias6", p, pcm); }
    { auto p = g; p.language = "de"; p.translate = true; g_ts_bias = 6; run_full(ctx, "translate_de_tsbias6", p, pcm); }
    { auto p = g; p.language = "auto"; g_ts_bias = 6; run_full(ctx, "auto_tsbias6", p, pcm); }
    { auto p = g; p.language = "en"; p.initial_prompt = " And so my fellow Americans"; g_ts_bias = 6; run_full(ctx, "prompt_tsbias6", p, pcm); }
    { auto p = g; p.language = "en"; p.max_initial_ts = 0.5f; g_ts_bias = 9; run_full(ctx, "tsbias9", p, pcm); }
    g_ts_bias = 0;
    whisper_print_timings(ctx);
    whisper_free(ctx);
    return 0;
}
