// mel_dump: record whisper.cpp's log-mel spectrogram of a 16-bit mono
// 16 kHz WAV with the mel filters of a GGML Whisper model file.
// Built against whisper.cpp's own source (included whole, to reach its
// internal log_mel_spectrogram and the filters the loader read).
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
    if (argc < 4) { fprintf(stderr, "usage: mel_dump model.bin audio.wav frame...\n"); return 2; }
    whisper_context_params cp = whisper_context_default_params();
    cp.use_gpu = false;
    whisper_context *ctx = whisper_init_from_file_with_params_no_state(argv[1], cp);
    if (!ctx) return 1;
    std::vector<float> pcm = read_wav16(argv[2]);
    whisper_state *st = new whisper_state;
    whisper_mel mel;
    log_mel_spectrogram(*st, pcm.data(), pcm.size(), WHISPER_SAMPLE_RATE, WHISPER_N_FFT, WHISPER_HOP_LENGTH,
                        ctx->model.filters.n_mel, 1, ctx->model.filters, false, mel);
    printf("n_samples %zu\nn_mel %d\nn_len %d\nn_len_org %d\n", pcm.size(), mel.n_mel, mel.n_len, mel.n_len_org);
    for (int a = 3; a < argc; a++) {
        int t = atoi(argv[a]);
        printf("frame %d", t);
        for (int j = 0; j < mel.n_mel; j++) printf(" %.9g", mel.data[j * mel.n_len + t]);
        printf("\n");
    }
    // Per-frame sums over the bins, for every frame that holds audio (and
    // two after); the rest of the 30 s padding is constant.
    int last = std::min(mel.n_len, mel.n_len_org + 2);
    for (int t = 0; t < last; t++) {
        double s = 0;
        for (int j = 0; j < mel.n_mel; j++) s += mel.data[j * mel.n_len + t];
        printf("sum %d %.9g\n", t, s);
    }
    double all = 0;
    for (float v : mel.data) all += v;
    printf("total %.12g\n", all);
    return 0;
}
