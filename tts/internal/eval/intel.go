package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/asr"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/wer"
	"github.com/sottolabs/sotto/tts"
)

// config is one way of speaking: a voice of a driver at a duration
// stretch (1 = the voice's natural rate, 1.15 = 15 % slower; passed as
// tts.Options.Speed = 1/stretch, which flite applies as its
// duration_stretch feature and espeak-ng as words per minute).
type config struct {
	driver, voice string
	stretch       float64
}

func (c config) key() string {
	return strings.NewReplacer("builtin:", "", "+", "_", "-", "_").Replace(c.driver+"_"+c.voice) + "_" + strconv.FormatFloat(c.stretch, 'f', 2, 64)
}

// defaultGrid is what the intelligibility tables measure, most important
// first: every flite voice at its natural rate, the two best also slower,
// and espeak-ng's default voice and its best variant (klatt) by the
// earlier run.
const defaultGrid = "flite:rms:1,flite:kal16:1,flite:slt:1,flite:awb:1,flite:rms:1.15,flite:rms:1.3,flite:kal16:1.15," +
	"flite:kal16:1.3,flite:kal:1,espeak-ng:en-us+klatt:1,espeak-ng:en-us:1"

// parseGrid reads driver:voice:stretch items separated by commas.
func parseGrid(s string) ([]config, error) {
	var out []config
	for _, item := range strings.Split(s, ",") {
		f := strings.Split(item, ":")
		if len(f) != 3 {
			return nil, fmt.Errorf("grid item %q: want driver:voice:stretch", item)
		}
		st, err := strconv.ParseFloat(f[2], 64)
		if err != nil || st <= 0 {
			return nil, fmt.Errorf("grid item %q: bad stretch", item)
		}
		out = append(out, config{f[0], "builtin:" + f[1], st})
	}
	return out, nil
}

// utterance is one recording to transcribe: an ID (its file name under the
// work directory) and its reference text.
type utterance struct {
	id, ref string
}

// synthesize speaks text with c into dir/id.raw (16 kHz 16-bit PCM) unless
// that file exists already.
func synthesize(ctx context.Context, b tts.Backend, c config, text, dir, id string) error {
	path := filepath.Join(dir, id+".raw")
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	var samples []float32
	rate := 0
	err := tts.Speak(ctx, b, text, tts.Options{Voice: c.voice, Language: "en", Speed: 1 / c.stretch}, func(ch tts.Chunk) error {
		samples, rate = append(samples, ch.Samples...), ch.Rate
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s %s: %w", c.driver, c.voice, err)
	}
	if rate != 16000 {
		if samples, err = audio.Resample(nil, samples, rate, 16000); err != nil {
			return err
		}
	}
	return os.WriteFile(path, audio.AppendPCM16(nil, samples), 0o644)
}

// recognizers transcribe the .raw files of dir whose IDs are given, each
// keeping its hypotheses in dir/<name>.hyp so that a later run with the
// same work directory decodes only what is new.
type recognizer struct {
	name, title string
	run         func(ctx context.Context, dir string, ids []string, out io.Writer) error
	only        []config // the configurations it transcribes; nil: all
}

// defaultGoGrid is what package asr transcribes by default.
const defaultGoGrid = "flite:rms:1,flite:kal16:1,flite:rms:1.15,flite:rms:1.3"

// wants reports whether r transcribes c.
func (r recognizer) wants(c config) bool { return r.only == nil || slices.Contains(r.only, c) }

var recognizers = []recognizer{
	{"peer", "`pocketsphinx_batch`", peerDecode, nil},
	{"go", "Sotto's `asr` (driver go)", goDecode, nil},
}

// transcribe returns the hypotheses of r for ids, decoding those not in
// dir/<r.name>.hyp yet.
func transcribe(ctx context.Context, r recognizer, dir string, ids []string) (map[string]string, error) {
	path := filepath.Join(dir, r.name+".hyp")
	have := map[string]string{}
	if _, err := os.Stat(path); err == nil {
		if have, err = readHyp(path); err != nil {
			return nil, err
		}
	}
	var todo []string
	for _, id := range ids {
		if _, ok := have[id]; !ok {
			todo = append(todo, id)
		}
	}
	if len(todo) > 0 {
		fmt.Fprintf(os.Stderr, "%s: decoding %d utterances\n", r.name, len(todo))
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, err
		}
		// In pieces, so that an interrupted run keeps what it decoded.
		for len(todo) > 0 && err == nil {
			n := min(len(todo), 130)
			err = r.run(ctx, dir, todo[:n], f)
			todo = todo[n:]
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		if have, err = readHyp(path); err != nil {
			return nil, err
		}
	}
	return have, nil
}

// peerDecode runs pocketsphinx_batch (Debian's en-us model, LM and
// dictionary, its defaults) once over every utterance.
func peerDecode(ctx context.Context, dir string, ids []string, out io.Writer) error {
	ctl := filepath.Join(dir, "todo.ctl")
	hyp := filepath.Join(dir, "todo.hyp")
	if err := os.WriteFile(ctl, []byte(strings.Join(ids, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "pocketsphinx_batch", "-ctl", ctl, "-cepdir", dir, "-cepext", ".raw",
		"-adcin", "yes", "-adchdr", "0", "-hyp", hyp, "-logfn", filepath.Join(dir, "ps.log"))
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pocketsphinx_batch: %v: %s", err, b)
	}
	b, err := os.ReadFile(hyp)
	if err != nil {
		return err
	}
	_, err = out.Write(b)
	return err
}

// goDecode transcribes each utterance with Sotto's own recognizer (asr
// driver "go", its defaults: the same Debian model, LM and dictionary).
func goDecode(ctx context.Context, dir string, ids []string, out io.Writer) error {
	b, err := asr.Open(ctx, "go", backend.Config{})
	if err != nil {
		return err
	}
	defer b.Close()
	w := bufio.NewWriter(out)
	defer w.Flush()
	for _, id := range ids {
		raw, err := os.ReadFile(filepath.Join(dir, id+".raw"))
		if err != nil {
			return err
		}
		samples := make([]float32, len(raw)/2)
		for i := range samples {
			samples[i] = float32(int16(uint16(raw[2*i])|uint16(raw[2*i+1])<<8)) / 32768
		}
		t, err := asr.Transcribe(ctx, b, sotto.Audio{Samples: samples, SampleRate: 16000}, asr.Options{Language: "en"})
		if err != nil {
			return fmt.Errorf("asr %s: %w", id, err)
		}
		text := strings.Join(strings.Fields(t.Text), " ")
		fmt.Fprintf(w, "%s (%s)\n", text, id)
	}
	return nil
}

// score is the errors and reference words of a set of utterances, counted
// strictly and with homophones equal.
type score struct {
	words, errs, soundErrs int
}

func (s *score) add(ctx context.Context, ref, hyp string, d *cmudict) {
	r, h := canon(ctx, ref), canon(ctx, hyp)
	r, h = joinCompounds(r, h), joinCompounds(h, r)
	s.words += len(r)
	s.errs += wer.Errors(r, h)
	s.soundErrs += wer.ErrorsFunc(r, h, d.sameSound)
}

func (s score) wer() string {
	if s.words == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f %% (%d)", 100*float64(s.errs)/float64(s.words), s.words)
}

func (s score) soundWER() string {
	if s.words == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(s.soundErrs)/float64(s.words))
}

// joinCompounds writes two neighbouring words of a as one where other has
// them as one word ("half way" against "halfway", "drug store" against
// "drugstore"): a spacing variant, not a recognition error.
func joinCompounds(a, other []string) []string {
	one := map[string]bool{}
	for _, w := range other {
		one[w] = true
	}
	var out []string
	for i := 0; i < len(a); i++ {
		if i+1 < len(a) && one[a[i]+a[i+1]] {
			out = append(out, a[i]+a[i+1])
			i++
			continue
		}
		out = append(out, a[i])
	}
	return out
}

// cmudict holds the pronunciations of the CMU dictionary Debian's
// pocketsphinx-en-us ships (the recognizers' own dictionary).
type cmudict map[string][]string

const cmudictPath = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"

func loadCMUDict(path string) (cmudict, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := cmudict{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		word, pron, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		if i := strings.IndexByte(word, '('); i > 0 {
			word = word[:i]
		}
		d[word] = append(d[word], strings.Join(strings.Fields(pron), " "))
	}
	return d, sc.Err()
}

// sameSound reports whether a and b are the same word or words the
// dictionary pronounces alike ("smoky" and "smokey", "too" and "two"): a
// voice cannot tell them apart, only the recognizer's language model
// chooses.
func (d cmudict) sameSound(a, b string) bool {
	if a == b {
		return true
	}
	pa, pb := d[a], d[b]
	for _, p := range pa {
		if slices.Contains(pb, p) {
			return true
		}
	}
	return false
}

// intelligibility synthesizes every sentence with every config, decodes
// them with both recognizers and reports WER per config, dev and sealed.
func intelligibility(ctx context.Context, w io.Writer, work string, backends map[string]tts.Backend, configs []config, recs []recognizer, d *cmudict) error {
	list := items()
	var ids []string
	for _, c := range configs {
		for i, it := range list {
			id := fmt.Sprintf("%s_s%03d", c.key(), i)
			if err := synthesize(ctx, backends[c.driver], c, it.text, work, id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
	}
	nSealed := 0
	for _, it := range list {
		if it.sealed {
			nSealed++
		}
	}
	fmt.Fprintln(w, "### Intelligibility")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Each voice speaks a fixed list of %d sentences: Harvard lists 1–10 (100 phonetically balanced sentences of low "+
		"predictability, the usual intelligibility material) and %d everyday sentences, many with numbers, money and times "+
		"spoken through Sotto's text normalization. `internal/holdout` seals %d of them (by a hash of the text, before any "+
		"measurement); the rest are the dev part. Audio is resampled to 16 kHz and transcribed by two recognizers, both on "+
		"Debian's pocketsphinx en-us acoustic model, trigram LM and CMU dictionary: `pocketsphinx_batch` (the peer) and "+
		"Sotto's own `asr` (driver go). *Stretch* is flite's `duration_stretch` (1.15 = 15 %% slower; `tts.Options.Speed` = "+
		"1/stretch, espeak-ng's words per minute likewise).\n\n", len(list), len(everyday), nSealed)
	fmt.Fprintln(w, "Scoring: WER = (substitutions + deletions + insertions) / reference words. Both sides go through `normalize` "+
		"(English TN: numbers, times and money as words); a word in capitals, which TN writes for letters said one by one "+
		"(\"AM\"), becomes its letters; then lower case, every character other than a letter, digit or apostrophe a space "+
		"(so hyphens split words and \"a.m.\" is \"a m\"). One general rule for spacing: two neighbouring words of one side that "+
		"the other side writes as one word count as that word (\"half way\" / \"halfway\"; so a row's reference word count "+
		"can differ by one). No per-word list. *Homophones "+
		"equal* also counts a word as right when the CMU dictionary gives it a pronunciation identical to one of the reference "+
		"word's (\"smokey\" for \"smoky\", but also \"two\" for \"too\"): such a substitution is the recognizer's language "+
		"model choosing a spelling, which no voice can influence.")
	fmt.Fprintln(w)
	for _, r := range recs {
		var mine []string
		for _, id := range ids {
			for _, c := range configs {
				if r.wants(c) && strings.HasPrefix(id, c.key()+"_s") {
					mine = append(mine, id)
				}
			}
		}
		hyps, err := transcribe(ctx, r, work, mine)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "**Recognizer: %s.** WER (reference words):\n\n", r.title)
		fmt.Fprintln(w, "| engine | voice | stretch | dev Harvard | dev everyday | dev all | sealed all | dev, homophones equal | sealed, homophones equal |")
		fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
		for _, c := range configs {
			if !r.wants(c) {
				continue
			}
			var harv, every, dev, sealed score
			for i, it := range list {
				hyp := hyps[fmt.Sprintf("%s_s%03d", c.key(), i)]
				if it.sealed {
					sealed.add(ctx, it.text, hyp, d)
					continue
				}
				dev.add(ctx, it.text, hyp, d)
				if it.group == "Harvard" {
					harv.add(ctx, it.text, hyp, d)
				} else {
					every.add(ctx, it.text, hyp, d)
				}
				if showErrors && r.name == "peer" && c.stretch == 1 && c.voice == "builtin:"+fliteDefaultName {
					r, h := canon(ctx, it.text), canon(ctx, hyp)
					if wer.Errors(r, h) > 0 {
						fmt.Fprintf(os.Stderr, "ref %s\nhyp %s\n", strings.Join(r, " "), strings.Join(h, " "))
					}
				}
			}
			fmt.Fprintf(w, "| %s | %s | %.2f | %s | %s | %s | %s | %s | %s |\n", c.driver, c.voice, c.stretch,
				harv.wer(), every.wer(), dev.wer(), sealed.wer(), dev.soundWER(), sealed.soundWER())
		}
		fmt.Fprintln(w)
	}
	return nil
}

// fliteDefaultName is the flite voice the tables single out (the driver's
// default).
const fliteDefaultName = "rms"

// human compares the recognizers on recorded human speech with the same
// recognizers on the default voice speaking the same transcripts: read
// English from the shared test data (every LJSpeech, VCTK and ARCTIC
// recording, every sixth LibriSpeech one by name). If the recognizer's LM were what holds the
// synthetic speech back, the human recordings would fare no better.
func human(ctx context.Context, w io.Writer, work, speech string, backends map[string]tts.Backend, configs []config, recs []recognizer, d *cmudict) error {
	var files []string
	for _, pat := range []string{"en_ls_*_16k.wav", "en_lj_*_16k.wav", "en_vctk_*_16k.wav", "en_arctic_*_16k.wav"} {
		m, err := filepath.Glob(filepath.Join(speech, pat))
		if err != nil {
			return err
		}
		slices.Sort(m)
		for i, f := range m {
			if i%6 == 0 || !strings.HasPrefix(filepath.Base(f), "en_ls_") {
				files = append(files, f)
			}
		}
	}
	var utts []utterance
	var humanIDs []string
	seconds := 0.0
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), "_16k.wav")
		ref, err := os.ReadFile(filepath.Join(speech, base+".txt"))
		if err != nil {
			continue
		}
		a, _, err := audio.DecodeFile(ctx, f, audio.Options{})
		if err != nil {
			return err
		}
		seconds += float64(len(a.Samples)) / 16000
		id := "human_" + base
		if err := os.WriteFile(filepath.Join(work, id+".raw"), audio.AppendPCM16(nil, a.Samples), 0o644); err != nil {
			return err
		}
		text := strings.TrimSpace(string(ref))
		if strings.ToUpper(text) == text { // LibriSpeech: upper case, which TN and scoring would read as letters
			text = strings.ToLower(text)
		}
		utts = append(utts, utterance{id, text})
		humanIDs = append(humanIDs, id)
	}
	if len(utts) == 0 {
		return nil
	}
	ids := map[string][]string{"human": humanIDs}
	for _, c := range configs {
		for _, u := range utts {
			id := c.key() + "_" + u.id
			if err := synthesize(ctx, backends[c.driver], c, u.ref, work, id); err != nil {
				return err
			}
			ids[c.key()] = append(ids[c.key()], id)
		}
	}
	fmt.Fprintln(w, "### Is it the voice or the recognizer? Human recordings of the same kind")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "The same recognizers on %d recordings of read English by people (every LJSpeech, VCTK and ARCTIC file of the "+
		"shared test data and every sixth LibriSpeech one by name, %.0f s), and on the voices below speaking the same transcripts (LibriSpeech's "+
		"upper-case transcripts lower-cased first). Same scoring as above. Where a voice scores better than the human "+
		"recordings of the same text, the errors left are the recognizer's, not the voice's.\n\n", len(utts), seconds)
	fmt.Fprintln(w, "| recognizer | speech | WER (words) | homophones equal |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: |")
	for _, r := range recs {
		var all []string
		for _, v := range ids {
			all = append(all, v...)
		}
		slices.Sort(all)
		hyps, err := transcribe(ctx, r, work, all)
		if err != nil {
			return err
		}
		rows := []string{"human"}
		names := map[string]string{"human": "human recordings"}
		for _, c := range configs {
			rows = append(rows, c.key())
			names[c.key()] = fmt.Sprintf("%s %s, stretch %.2f", c.driver, c.voice, c.stretch)
		}
		for _, k := range rows {
			var s score
			for i, id := range ids[k] {
				s.add(ctx, utts[i].ref, hyps[id], d)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", r.title, names[k], s.wer(), s.soundWER())
		}
	}
	fmt.Fprintln(w)
	return nil
}
