package sphinx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// errTruncated is wrapped by every reader when a file ends too early.
var errTruncated = errors.New("truncated file")

// s3Reader walks the payload of a Sphinx-3 binary parameter file ("s3"
// header, byte-order magic 0x11223344, little- or big-endian words and an
// optional rolling checksum over every word read after the magic).
type s3Reader struct {
	name   string
	data   []byte
	off    int
	order  binary.ByteOrder
	sum    uint32
	chksum bool
	header map[string]string
}

// newS3Reader parses the text header and byte-order magic of data.
func newS3Reader(name string, data []byte) (*s3Reader, error) {
	if !bytes.HasPrefix(data, []byte("s3\n")) {
		return nil, fmt.Errorf("sphinx: %s: missing \"s3\" header", name)
	}
	r := &s3Reader{name: name, data: data, header: map[string]string{}}
	off := 3
	for {
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			return nil, fmt.Errorf("sphinx: %s: header has no endhdr: %w", name, errTruncated)
		}
		line := string(bytes.TrimSpace(data[off : off+nl]))
		off += nl + 1
		if line == "endhdr" {
			break
		}
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, _ := bytes.Cut([]byte(line), []byte(" "))
		r.header[string(k)] = string(bytes.TrimSpace(v))
		if off > 1<<16 {
			return nil, fmt.Errorf("sphinx: %s: header longer than 64 KiB", name)
		}
	}
	if len(data)-off < 4 {
		return nil, fmt.Errorf("sphinx: %s: no byte-order magic: %w", name, errTruncated)
	}
	switch binary.LittleEndian.Uint32(data[off:]) {
	case 0x11223344:
		r.order = binary.LittleEndian
	case 0x44332211:
		r.order = binary.BigEndian
	default:
		return nil, fmt.Errorf("sphinx: %s: bad byte-order magic %#08x", name, binary.LittleEndian.Uint32(data[off:]))
	}
	r.off = off + 4
	r.chksum = r.header["chksum0"] == "yes"
	return r, nil
}

// u32 reads one 4-byte word and folds it into the checksum.
func (r *s3Reader) u32() (uint32, error) {
	if len(r.data)-r.off < 4 {
		return 0, fmt.Errorf("sphinx: %s: at byte %d: %w", r.name, r.off, errTruncated)
	}
	v := r.order.Uint32(r.data[r.off:])
	r.off += 4
	r.sum = (r.sum<<20 | r.sum>>12) + v
	return v, nil
}

// count reads a non-negative int32 that must not exceed max.
func (r *s3Reader) count(what string, max int) (int, error) {
	v, err := r.u32()
	if err != nil {
		return 0, err
	}
	n := int(int32(v))
	if n < 0 || n > max {
		return 0, fmt.Errorf("sphinx: %s: %s = %d out of range [0,%d]", r.name, what, n, max)
	}
	return n, nil
}

// floats reads n float32 words.
func (r *s3Reader) floats(n int) ([]float32, error) {
	if n < 0 || (len(r.data)-r.off)/4 < n {
		return nil, fmt.Errorf("sphinx: %s: %d floats at byte %d: %w", r.name, n, r.off, errTruncated)
	}
	out := make([]float32, n)
	for i := range out {
		v, _ := r.u32()
		out[i] = math.Float32frombits(v)
	}
	return out, nil
}

// cube reads the body the three-dimensional float files share (transition
// matrices, mixture weights, feature transforms): three dimensions, each
// named and bounded by names and maxes, checked by shape, then the value
// count (at most maxN, and their product), the values and the trailer.
func (r *s3Reader) cube(names [3]string, maxes [3]int, maxN int, shape func(d [3]int) error) ([3]int, []float32, error) {
	var d [3]int
	for i := range d {
		n, err := r.count(names[i], maxes[i])
		if err != nil {
			return d, nil, err
		}
		d[i] = n
	}
	if err := shape(d); err != nil {
		return d, nil, err
	}
	n, err := r.count("value count", maxN)
	if err != nil {
		return d, nil, err
	}
	if want := d[0] * d[1] * d[2]; n != want {
		return d, nil, fmt.Errorf("sphinx: %s: value count %d, want %d×%d×%d = %d", r.name, n, d[0], d[1], d[2], want)
	}
	vals, err := r.floats(n)
	if err != nil {
		return d, nil, err
	}
	return d, vals, r.finish()
}

// finish verifies the trailing checksum (when the header announces one) and
// that nothing follows it.
func (r *s3Reader) finish() error {
	if r.chksum {
		want := r.sum
		if len(r.data)-r.off < 4 {
			return fmt.Errorf("sphinx: %s: missing checksum: %w", r.name, errTruncated)
		}
		got := r.order.Uint32(r.data[r.off:])
		r.off += 4
		if got != want {
			return fmt.Errorf("sphinx: %s: checksum mismatch: file says %#08x, data gives %#08x", r.name, got, want)
		}
	}
	if r.off != len(r.data) {
		return fmt.Errorf("sphinx: %s: %d trailing bytes after the data", r.name, len(r.data)-r.off)
	}
	return nil
}
