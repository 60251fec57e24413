package sphinx

import (
	"encoding/binary"
	"fmt"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
	"os"
	"path/filepath"
	"testing"
)

// testdataDir returns the shared test data directory ($SOTTO_TESTDATA or
// ../shared/testdata next to the repository root) or skips the test.
func testdataDir(t testing.TB) string {
	t.Helper()
	return sharedtestdata.Dir(t, "speech")
}

// speechFile returns the path of a file in the shared speech folder or skips.
func speechFile(t testing.TB, name string) string {
	t.Helper()
	return sharedtestdata.Path(t, "speech", name)
}

// modelDir returns the Debian en-us acoustic model directory or skips.
func modelDir(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(DefaultModelDir, "mdef")); err != nil {
		t.Skipf("acoustic model not installed at %s (apt-get install pocketsphinx-en-us)", DefaultModelDir)
	}
	return DefaultModelDir
}

// readWAV16 decodes a 16-bit mono PCM RIFF/WAVE file by walking its chunks.
// It is a test-only helper; the public audio package is the real decoder.
func readWAV16(path string) ([]int16, int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, 0, fmt.Errorf("%s: not a RIFF/WAVE file", path)
	}
	rate, bits, ch := 0, 0, 0
	for off := 12; off+8 <= len(b); {
		id := string(b[off : off+4])
		n := int(binary.LittleEndian.Uint32(b[off+4:]))
		body := b[off+8:]
		if n > len(body) {
			n = len(body)
		}
		switch id {
		case "fmt ":
			if n < 16 {
				return nil, 0, fmt.Errorf("%s: short fmt chunk", path)
			}
			ch = int(binary.LittleEndian.Uint16(body[2:]))
			rate = int(binary.LittleEndian.Uint32(body[4:]))
			bits = int(binary.LittleEndian.Uint16(body[14:]))
		case "data":
			if ch != 1 || bits != 16 {
				return nil, 0, fmt.Errorf("%s: %d channels, %d bits; want mono 16-bit", path, ch, bits)
			}
			s := make([]int16, n/2)
			for i := range s {
				s[i] = int16(binary.LittleEndian.Uint16(body[2*i:]))
			}
			return s, rate, nil
		}
		off += 8 + n + n&1
	}
	return nil, 0, fmt.Errorf("%s: no data chunk", path)
}

// readWAVFloat returns the samples of a 16 kHz mono WAV scaled to [-1,1].
func readWAVFloat(t testing.TB, path string) []float32 {
	t.Helper()
	s, rate, err := readWAV16(path)
	if err != nil {
		t.Fatal(err)
	}
	if rate != 16000 {
		t.Fatalf("%s: %d Hz, want 16000", path, rate)
	}
	f := make([]float32, len(s))
	for i, v := range s {
		f[i] = float32(v) / 32768
	}
	return f
}

func readFileBytes(p string) ([]byte, error) { return os.ReadFile(p) }
