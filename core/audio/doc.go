// Package audio turns recordings into the log-frequency spectrograms that gitui's speech
// experiments learn from (Mroueh, Voinea, Poggio, NIPS 2015, Sec. 5, TIDIGITS).
//
// # Overview
//
//   - WAV: ReadWAV and DecodeWAV read RIFF/WAVE files with PCM samples of 8, 16, 24 or 32
//     bits or IEEE float (32 or 64 bits), also in WAVE_FORMAT_EXTENSIBLE, mono or with
//     several channels (averaged to mono); EncodeWAV writes 16-bit PCM or 32-bit float.
//   - Resampling: Resample changes the sample rate by a windowed-sinc (Kaiser) filter
//     evaluated in polyphase form for the rational ratio to/from, low-pass at the lower
//     Nyquist frequency. No naive decimation.
//   - Spectrograms: Spectrogram computes Hann-windowed frames, their FFT (gonum
//     dsp/fourier), triangular bands one semitone apart, dB above the utterance's peak
//     clipped at a floor, the word centred in a fixed window of frames, flattened
//     band-major to Bands×Frames values with unit norm. On this axis a pitch shift by k
//     semitones is a translation by k bands.
//   - Signal processing on waveforms: TimeStretch (a phase vocoder) changes the tempo
//     and keeps the pitch; PitchShift changes the pitch by cents and keeps the duration
//     (phase vocoder, then resampling); Trim cuts leading and trailing silence; Words
//     cuts a recording of several words at its pauses.
//
// # Shapes
//
// A waveform is a []float64 of samples in [-1, 1] at Rate samples per second. A
// spectrogram is a []float64 of Bands×Frames values, value (b, t) at index b·Frames+t,
// band 0 the lowest.
//
// # Errors
//
// A file that is not a WAV file, is truncated or has an unsupported format gives a
// one-line error naming the problem and the fix; ReadWAV prefixes the file name.
// Programmer errors (a non-positive rate, bad parameters) panic with the prefix "audio: ".
//
// # Concurrency
//
// Functions hold no package state and may run concurrently. A Spectrogrammer holds
// scratch space: use one per goroutine (SpectrogramAll does so over GOMAXPROCS workers).
package audio
