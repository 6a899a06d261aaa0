package audio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// Sound is a mono waveform: Samples in [-1, 1] at Rate samples per second.
type Sound struct {
	Rate    int
	Samples []float64
}

// Duration returns the length of s in seconds.
func (s *Sound) Duration() float64 { return float64(len(s.Samples)) / float64(s.Rate) }

// WAV format tags (RIFF, Microsoft): PCM, IEEE float, and the extensible header whose
// sub-format GUID starts with one of the first two.
const (
	wavPCM        = 1
	wavFloat      = 3
	wavExtensible = 0xFFFE
)

// maxFloatSample bounds the magnitude of a float sample (60 dB above full scale): larger
// values are garbage, not audio.
const maxFloatSample = 1000

// MaxWAVRate is the largest sample rate DecodeWAV accepts, in Hz: above the 768 kHz of
// the fastest audio interfaces, so a larger rate is a corrupt header, not audio.
const MaxWAVRate = 1_000_000

// maxWAVBytes bounds the data chunk a reader accepts (1 GiB, hours of audio).
const maxWAVBytes = 1 << 30

// ReadWAV reads the WAV file at path (see DecodeWAV); errors name the file. Before the
// file is read whole it must be a regular file (not a link to /dev/zero), start with a
// RIFF/WAVE header, and be no larger than maxWAVBytes and what that header claims (so a
// 3 GB file of something else is refused after reading 12 bytes, not 3 GB).
func ReadWAV(path string) (*Sound, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (a device, a pipe or a directory): give the path of a WAV file", path)
	}
	var head [12]byte
	n, _ := io.ReadFull(f, head[:])
	if _, err := DecodeWAVHeader(head[:n], fi.Size()); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b := make([]byte, fi.Size())
	copy(b, head[:n])
	if _, err := io.ReadFull(f, b[n:]); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	s, err := DecodeWAV(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// DecodeWAVHeader checks the first 12 bytes of a WAV file of size bytes: the RIFF/WAVE
// magic, and a RIFF size no smaller than the file's (a longer file is not the recording
// its header describes) and within maxWAVBytes. It returns the RIFF size.
func DecodeWAVHeader(head []byte, size int64) (int64, error) {
	if len(head) < 12 || string(head[0:4]) != "RIFF" || string(head[8:12]) != "WAVE" {
		if len(head) >= 4 && string(head[0:4]) == "RIFX" {
			return 0, errors.New("big-endian WAV (RIFX) is not supported: convert it, e.g. `sox in.wav -b 16 out.wav`")
		}
		return 0, errors.New("not a WAV file (no RIFF/WAVE header): check the path or convert the file to WAV")
	}
	riff := int64(binary.LittleEndian.Uint32(head[4:8])) + 8
	if size > maxWAVBytes+1<<20 {
		return riff, fmt.Errorf("WAV file of %d bytes is larger than %d: split the recording", size, int64(maxWAVBytes))
	}
	if riff != 8 && riff != 0xFFFFFFFF+8 && size > riff+1<<20 {
		// 0 and 0xFFFFFFFF are the sizes of a streamed file whose writer could not seek
		// back; a small tail (padding, a trailing chunk miscounted) is tolerated.
		return riff, fmt.Errorf("WAV file of %d bytes is larger than the %d its RIFF header claims: the file is not one recording; re-export it", size, riff)
	}
	return riff, nil
}

// DecodeWAV decodes a RIFF/WAVE file held in b: PCM of 8 (unsigned), 16, 24 or 32 bits,
// or IEEE float of 32 or 64 bits, plain or WAVE_FORMAT_EXTENSIBLE, with any number of
// channels, which are averaged to mono. PCM is scaled to [-1, 1) by 2^(bits-1). Chunks
// other than "fmt " and "data" are skipped. Float samples must be finite and within ±1000. It returns a one-line error for anything
// else: not RIFF/WAVE, a truncated header or data chunk, a missing chunk, a compressed
// or unsupported format, a zero rate or channel count.
func DecodeWAV(b []byte) (*Sound, error) {
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		if len(b) >= 4 && string(b[0:4]) == "RIFX" {
			return nil, errors.New("big-endian WAV (RIFX) is not supported: convert it, e.g. `sox in.wav -b 16 out.wav`")
		}
		return nil, errors.New("not a WAV file (no RIFF/WAVE header): check the path or convert the file to WAV")
	}
	var (
		haveFmt          bool
		format, channels int
		rate, bits       int
		data             []byte
		haveData         bool
	)
	p := 12
	for p+8 <= len(b) {
		id := string(b[p : p+4])
		size := int(binary.LittleEndian.Uint32(b[p+4 : p+8]))
		body := b[p+8:]
		if id == "data" && (size == 0 || size == 0xFFFFFFFF) && haveFmt {
			size = len(body) // a streamed file whose writer could not seek back to the size
		}
		if size > len(body) {
			return nil, fmt.Errorf("WAV file is truncated: chunk %q announces %d bytes, %d present: re-export or re-download it", printable(id), size, len(body))
		}
		body = body[:size]
		switch id {
		case "fmt ":
			if size < 16 {
				return nil, fmt.Errorf("WAV fmt chunk has %d bytes, want at least 16: the file is corrupt", size)
			}
			format = int(binary.LittleEndian.Uint16(body[0:2]))
			channels = int(binary.LittleEndian.Uint16(body[2:4]))
			rate = int(binary.LittleEndian.Uint32(body[4:8]))
			bits = int(binary.LittleEndian.Uint16(body[14:16]))
			if format == wavExtensible {
				if size < 40 {
					return nil, fmt.Errorf("WAV extensible fmt chunk has %d bytes, want 40: the file is corrupt", size)
				}
				format = int(binary.LittleEndian.Uint16(body[24:26]))
			}
			haveFmt = true
		case "data":
			if size > maxWAVBytes {
				return nil, fmt.Errorf("WAV data chunk of %d bytes is larger than %d: split the recording", size, maxWAVBytes)
			}
			data, haveData = body, true
		}
		p += 8 + size + size%2 // chunks are padded to even sizes
		if haveData && haveFmt {
			break
		}
	}
	if !haveFmt {
		return nil, errors.New("WAV file has no fmt chunk: the file is corrupt or truncated")
	}
	if !haveData {
		return nil, errors.New("WAV file has no data chunk: the file is corrupt or truncated")
	}
	if channels < 1 || rate < 1 {
		return nil, fmt.Errorf("WAV file has %d channels at %d Hz: the header is corrupt", channels, rate)
	}
	if rate > MaxWAVRate {
		return nil, fmt.Errorf("WAV header gives a sample rate of %d Hz, above the %d Hz of any recording: the header is corrupt, re-export or re-download the file", rate, MaxWAVRate)
	}
	var dec func([]byte) float64
	switch {
	case format == wavPCM && bits == 8:
		dec = func(s []byte) float64 { return (float64(s[0]) - 128) / 128 }
	case format == wavPCM && bits == 16:
		dec = func(s []byte) float64 { return float64(int16(binary.LittleEndian.Uint16(s))) / (1 << 15) }
	case format == wavPCM && bits == 24:
		dec = func(s []byte) float64 {
			v := int32(uint32(s[0])<<8|uint32(s[1])<<16|uint32(s[2])<<24) >> 8
			return float64(v) / (1 << 23)
		}
	case format == wavPCM && bits == 32:
		dec = func(s []byte) float64 { return float64(int32(binary.LittleEndian.Uint32(s))) / (1 << 31) }
	case format == wavFloat && bits == 32:
		dec = func(s []byte) float64 { return float64(math.Float32frombits(binary.LittleEndian.Uint32(s))) }
	case format == wavFloat && bits == 64:
		dec = func(s []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(s)) }
	default:
		return nil, fmt.Errorf("WAV format %d with %d bits per sample is not supported: convert it to 16-bit PCM, e.g. `sox in.wav -b 16 -e signed out.wav`", format, bits)
	}
	bps := bits / 8
	frame := bps * channels
	n := len(data) / frame
	if len(data)%frame != 0 {
		return nil, fmt.Errorf("WAV data chunk of %d bytes is not a whole number of %d-byte frames: the file is corrupt", len(data), frame)
	}
	out := make([]float64, n)
	for i := range n {
		var sum float64
		for c := range channels {
			off := i*frame + c*bps
			v := dec(data[off : off+bps])
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > maxFloatSample {
				return nil, fmt.Errorf("WAV sample %d is %v, not a number near [-1, 1]: the file is corrupt", i, v)
			}
			sum += v
		}
		out[i] = sum / float64(channels)
	}
	return &Sound{Rate: rate, Samples: out}, nil
}

func printable(s string) string {
	for _, r := range s {
		if r < 32 || r > 126 {
			return fmt.Sprintf("% x", []byte(s))
		}
	}
	return s
}

// Encoding of the samples EncodeWAV writes.
const (
	PCM16   = 16 // 16-bit signed PCM, values clipped to [-1, 1)
	Float32 = 32 // 32-bit IEEE float
)

// EncodeWAV writes s as a mono RIFF/WAVE file in the given encoding (PCM16 or Float32)
// to w. PCM16 rounds to the nearest step and clips to [-1, 1). It panics on another
// encoding or a non-positive rate.
func EncodeWAV(w io.Writer, s *Sound, encoding int) error {
	if s.Rate < 1 {
		panic(fmt.Sprintf("audio: EncodeWAV: rate %d", s.Rate))
	}
	var format, bits int
	switch encoding {
	case PCM16:
		format, bits = wavPCM, 16
	case Float32:
		format, bits = wavFloat, 32
	default:
		panic(fmt.Sprintf("audio: EncodeWAV: encoding %d", encoding))
	}
	n := len(s.Samples) * bits / 8
	var buf bytes.Buffer
	buf.Grow(44 + n)
	le := binary.LittleEndian
	buf.WriteString("RIFF")
	_ = binary.Write(&buf, le, uint32(36+n))
	buf.WriteString("WAVEfmt ")
	_ = binary.Write(&buf, le, uint32(16))
	_ = binary.Write(&buf, le, uint16(format))
	_ = binary.Write(&buf, le, uint16(1))
	_ = binary.Write(&buf, le, uint32(s.Rate))
	_ = binary.Write(&buf, le, uint32(s.Rate*bits/8))
	_ = binary.Write(&buf, le, uint16(bits/8))
	_ = binary.Write(&buf, le, uint16(bits))
	buf.WriteString("data")
	_ = binary.Write(&buf, le, uint32(n))
	var tmp [4]byte
	for _, v := range s.Samples {
		if encoding == PCM16 {
			q := math.Round(v * (1 << 15))
			q = math.Max(-(1 << 15), math.Min(1<<15-1, q))
			le.PutUint16(tmp[:2], uint16(int16(q)))
			buf.Write(tmp[:2])
		} else {
			le.PutUint32(tmp[:], math.Float32bits(float32(v)))
			buf.Write(tmp[:])
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteWAV writes s to path with EncodeWAV, through a temporary file renamed into place.
func WriteWAV(path string, s *Sound, encoding int) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := EncodeWAV(f, s, encoding); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(tmp, path)
}
