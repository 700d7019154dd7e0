package server

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
)

// Default bounds of a review's body. The apiserver refuses request bodies
// over 3 MiB (--max-request-bytes), so an admission review carries at most
// two such objects (object and oldObject, as JSON) plus its envelope
// (userInfo, options, kinds): 8 MiB holds that with room for the escaping
// of a raw object. A conversion review carries a list (every object of a
// LIST the apiserver converts at once), so it gets more.
const (
	DefaultAdmissionMaxBytes  int64 = 8 << 20
	DefaultConversionMaxBytes int64 = 32 << 20
)

// DefaultMaxInFlight bounds the reviews being read or answered at once,
// across every hook of both servers, those waiting for a hook's slot
// included: a burst of the apiserver (a kubectl apply of many objects)
// fits; a flood is refused instead of piling up goroutines.
const DefaultMaxInFlight = 256

// DefaultMaxInFlightBytes bounds the bodies held at once, each counted at
// its Content-Length (a chunked one at the cap): real reviews are a few
// KiB, so this only ever refuses a flood of large bodies, which would
// otherwise cost MaxInFlight × the cap.
const DefaultMaxInFlightBytes int64 = 64 << 20

// DefaultMaxConnections bounds the connections one server holds open
// (TLS handshakes, requests, idle keep-alives): each costs a goroutine and
// some 40 KiB of buffers.
const DefaultMaxConnections = 1024

// errTooLarge is a body past the cap.
type errTooLarge struct{ limit int64 }

func (e errTooLarge) Error() string {
	return fmt.Sprintf("request body too large: the limit is %d bytes", e.limit)
}

// readBody reads r's body, at most limit bytes: a Content-Length past it is
// refused before a byte is read, a chunked body as soon as it passes it.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, errTooLarge{limit}
	}
	var body []byte
	var err error
	if r.ContentLength >= 0 {
		// net/http ends the body at its Content-Length.
		body = make([]byte, r.ContentLength)
		_, err = io.ReadFull(r.Body, body)
	} else {
		body, err = readChunked(http.MaxBytesReader(w, r.Body, limit))
	}
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, errTooLarge{limit}
	}
	if err != nil {
		return nil, fmt.Errorf("read request body: %w", err)
	}
	return body, nil
}

// readChunked reads a body of unknown length in blocks (32 KiB doubling up
// to 1 MiB) joined at the end: a body refused at the cap has cost the cap
// and one block, not the garbage of a buffer grown by doubling.
func readChunked(r io.Reader) ([]byte, error) {
	var blocks [][]byte
	total, size := 0, 32<<10
	for {
		block := make([]byte, size)
		n, err := io.ReadFull(r, block)
		blocks, total = append(blocks, block[:n]), total+n
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(2*size, 1<<20)
	}
	if len(blocks) == 1 {
		return blocks[0], nil
	}
	body := make([]byte, 0, total)
	for _, b := range blocks {
		body = append(body, b...)
	}
	return body, nil
}

// inFlight is the global bound on reviews in flight, by count and by
// body bytes: a review enters without waiting, or is refused at once.
type inFlight struct {
	mu              sync.Mutex
	count, maxCount int
	bytes, maxBytes int64
}

func newInFlight(maxCount int, maxBytes int64) *inFlight {
	return &inFlight{maxCount: maxCount, maxBytes: maxBytes}
}

// tryEnter takes a place for a review of size body bytes.
func (f *inFlight) tryEnter(size int64) (release func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.count >= f.maxCount || f.bytes+size > f.maxBytes {
		return nil, false
	}
	f.count++
	f.bytes += size
	return sync.OnceFunc(func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.count--
		f.bytes -= size
	}), true
}

// limitListener accepts at most n connections open at once; more wait in
// the kernel's backlog until one closes (slow ones close at the read
// header timeout).
type limitListener struct {
	net.Listener
	slots     chan struct{}
	closed    chan struct{}
	closeOnce sync.Once
}

func newLimitListener(ln net.Listener, n int) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), closed: make(chan struct{})}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.closed:
		return nil, net.ErrClosed
	}
	conn, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: conn, release: func() { <-l.slots }}, nil
}

// Close closes the listener and ends an Accept waiting for a slot.
func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// limitedConn gives its slot back on its first Close.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
