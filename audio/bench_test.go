package audio_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mewkiz/flac"
	"github.com/mewkiz/flac/frame"
	"github.com/sottolabs/sotto/audio"
)

// benchRepeats copies of the 11 s en_jfk_44k_stereo_24bit.flac make a
// 605 s (about 10-minute) 44.1 kHz stereo 24-bit file.
const benchRepeats = 55

// makeBenchFiles writes the long FLAC (the original frames, re-encoded with
// their own predictors, so compression is as in the original) and the same
// samples as a 24-bit WAV into dir.
func makeBenchFiles(b *testing.B, dir string) (flacPath, wavPath string, seconds float64) {
	b.Helper()
	src, reason := findSpeechDir()
	if src == "" {
		b.Skip(reason)
	}
	in, err := flac.ParseFile(filepath.Join(src, "en_jfk_44k_stereo_24bit.flac"))
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	var frames []*frame.Frame
	for {
		f, err := in.ParseNext()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		frames = append(frames, f)
	}
	info := *in.Info
	info.NSamples *= benchRepeats
	info.MD5sum = [16]byte{}

	flacPath = filepath.Join(dir, "long.flac")
	fo, err := os.Create(flacPath)
	if err != nil {
		b.Fatal(err)
	}
	enc, err := flac.NewEncoder(fo, &info)
	if err != nil {
		b.Fatal(err)
	}
	enc.EnablePredictionAnalysis(false)

	wavPath = filepath.Join(dir, "long.wav")
	wo, err := os.Create(wavPath)
	if err != nil {
		b.Fatal(err)
	}
	ww := bufio.NewWriter(wo)
	ch := int(info.NChannels)
	dataSize := uint32(info.NSamples) * uint32(ch) * 3
	le := binary.LittleEndian
	hdr := le.AppendUint32([]byte("RIFF"), 36+dataSize)
	hdr = append(hdr, "WAVEfmt \x10\x00\x00\x00"...)
	hdr = le.AppendUint16(hdr, 1)
	hdr = le.AppendUint16(hdr, uint16(ch))
	hdr = le.AppendUint32(hdr, info.SampleRate)
	hdr = le.AppendUint32(hdr, info.SampleRate*uint32(ch)*3)
	hdr = le.AppendUint16(hdr, uint16(ch*3))
	hdr = le.AppendUint16(hdr, 24)
	hdr = append(hdr, "data"...)
	hdr = le.AppendUint32(hdr, dataSize)
	ww.Write(hdr)

	for range benchRepeats {
		for _, f := range frames {
			if err := enc.WriteFrame(f); err != nil {
				b.Fatal(err)
			}
			for i := range int(f.BlockSize) {
				for c := range ch {
					v := f.Subframes[c].Samples[i]
					ww.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16)})
				}
			}
		}
	}
	if err := enc.Close(); err != nil { // also closes fo
		b.Fatal(err)
	}
	if err := ww.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := wo.Close(); err != nil {
		b.Fatal(err)
	}
	return flacPath, wavPath, float64(info.NSamples) / float64(info.SampleRate)
}

// BenchmarkDecode10Min decodes and resamples a 605 s 44.1 kHz stereo 24-bit
// file (FLAC and WAV) to 16 kHz mono, and in the same run has ffmpeg do the
// same conversion ("ffmpeg -i FILE -ar 16000 -ac 1 -f f32le -"). It reports
// the real-time factor (processing time / audio duration) and MB/s of input.
func BenchmarkDecode10Min(b *testing.B) {
	flacPath, wavPath, seconds := makeBenchFiles(b, b.TempDir())
	for _, in := range []struct{ name, path string }{{"flac", flacPath}, {"wav", wavPath}} {
		st, err := os.Stat(in.path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(in.name+"/go", func(b *testing.B) {
			b.SetBytes(st.Size())
			b.ReportAllocs()
			cpu0 := selfCPU()
			for b.Loop() {
				a, _, err := audio.DecodeFile(context.Background(), in.path, audio.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if a.Seconds() < seconds-0.01 {
					b.Fatalf("decoded %.2f s; want %.2f s", a.Seconds(), seconds)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/seconds, "rtf")
			// CPU time is less disturbed than wall time on a shared machine.
			b.ReportMetric((selfCPU()-cpu0).Seconds()/float64(b.N)/seconds, "cpu-rtf")
		})
		b.Run(in.name+"/ffmpeg", func(b *testing.B) {
			bin, err := exec.LookPath("ffmpeg")
			if err != nil {
				b.Skip("ffmpeg is not on PATH")
			}
			b.SetBytes(st.Size())
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(bin, "-nostdin", "-v", "error", "-i", in.path, "-ar", "16000", "-ac", "1", "-f", "f32le", "-")
				out, err := cmd.StdoutPipe()
				if err != nil {
					b.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, out)
				if err != nil {
					b.Fatal(err)
				}
				if err := cmd.Wait(); err != nil {
					b.Fatal(err)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				if got := float64(n) / 4 / 16000; got < seconds-0.01 {
					b.Fatalf("ffmpeg produced %.2f s; want %.2f s", got, seconds)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/seconds, "rtf")
			b.ReportMetric(cpu.Seconds()/float64(b.N)/seconds, "cpu-rtf")
		})
	}
}
