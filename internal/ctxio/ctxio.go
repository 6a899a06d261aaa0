// Package ctxio makes reads stop when a context is done, so that a load or a download
// nobody waits for any more ends at its next read instead of running to the end of the
// file.
package ctxio

import (
	"context"
	"io"
)

// Reader returns a reader that passes the reads of r through until ctx is done, and
// from then on fails every Read with ctx.Err() (undecorated, so errors.Is(err,
// context.Canceled) holds) without calling r. A Read already in progress in r is not
// interrupted. It does not close r.
func Reader(ctx context.Context, r io.Reader) io.Reader { return reader{ctx, r} }

type reader struct {
	ctx context.Context
	r   io.Reader
}

func (c reader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// ReaderAt returns an io.ReaderAt that passes the reads of r through until ctx is done,
// and from then on fails every ReadAt with ctx.Err() without calling r, as Reader does.
func ReaderAt(ctx context.Context, r io.ReaderAt) io.ReaderAt { return readerAt{ctx, r} }

type readerAt struct {
	ctx context.Context
	r   io.ReaderAt
}

func (c readerAt) ReadAt(p []byte, off int64) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.ReadAt(p, off)
}
