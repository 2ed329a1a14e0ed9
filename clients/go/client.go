// Package layoutd is the Go client of layoutd, the text layout daemon: glyph positions and
// rectangles for a text, over the daemon's Unix socket (protobuf frames, no gRPC).
//
//	client, err := layoutd.Dial(layoutd.Options{})
//	if err != nil { ... }
//	defer client.Close()
//	reply, err := client.LayoutText(ctx, "Hello, world", 300)
//
// A Client is safe for concurrent use: calls from many goroutines are in flight together on
// its one connection (pipelined), and LayoutMany does that for a list. On connect it greets the
// daemon and refuses one of another protocol version; a request the daemon does not serve is
// refused before it is sent. Every failure is an *Error with a Code.
//
// The client outlives the daemon (a restart, an upgrade, a crash): the call after the
// connection is lost connects again, waiting up to ReconnectWait for the socket, greets the new
// daemon and registers the client's fonts on it again. A request whose reply never came is sent
// again (Retries times) only where that is safe: it changes nothing in the daemon, or the daemon
// answered UNAVAILABLE. A document lives on its connection: a call on one opened before the loss
// fails with DocumentGone (docs/protocol.md, "Retrying").
package layoutd

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"layoutd/clients/go/layoutdv1"
)

// ProtocolVersion is the protocol this client speaks; a daemon reporting another is refused.
const ProtocolVersion = 1

// NoRetries as Options.Retries: never send a request again.
const NoRetries = -1

// Options for Dial; the zero value is the defaults.
type Options struct {
	// SocketPath: "" finds it as layoutctl does (FindSocket).
	SocketPath string
	// Timeout bounds each call (and the connect); 0 is 60 s.
	Timeout time.Duration
	// ReconnectWait: how long a call after a lost connection waits for the socket; 0 is 5 s.
	ReconnectWait time.Duration
	// Retries: how many times a request is sent again where that is safe; 0 is 1, NoRetries none.
	Retries int
	// ClientName is sent in the hello, for the daemon's log.
	ClientName string
	// TrustAnyPeer skips the check that the daemon runs as this user, root or the service.
	TrustAnyPeer bool
}

// Client is a connection to layoutd, made again when it is lost.
type Client struct {
	options Options
	path    string
	nextID  atomic.Uint64

	replacing sync.Mutex // one new connection at a time
	mu        sync.Mutex
	current   *connection
	hello     *layoutdv1.HelloReply
	closed    bool
	documents map[uint64]int // open document -> the generation it lives on
	fonts     []*layoutdv1.RegisterFontsRequest
}

// Dial connects to the daemon, checks whose it is, greets it and checks its version.
func Dial(options Options) (*Client, error) {
	if options.Timeout <= 0 {
		options.Timeout = 60 * time.Second
	}
	if options.ReconnectWait == 0 {
		options.ReconnectWait = 5 * time.Second
	}
	if options.Retries == 0 {
		options.Retries = 1
	}
	if options.Retries < 0 {
		options.Retries = 0
	}
	if options.ClientName == "" {
		options.ClientName = "layoutd-go"
	}
	client := &Client{options: options, path: FindSocket(options.SocketPath), documents: map[uint64]int{}}
	conn, hello, err := client.open(false, 1)
	if err != nil {
		return nil, err
	}
	client.current, client.hello = conn, hello
	return client, nil
}

// Daemon is the daemon's hello: its version, limits and the requests it serves.
func (c *Client) Daemon() *layoutdv1.HelloReply {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hello
}

// Close ends the connection; calls still waiting fail, and so do later ones.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	current := c.current
	c.mu.Unlock()
	current.breakWith(failure(Unreachable, nil, "the client is closed"))
	return nil
}

// open makes a connection of `generation`, greeted, with the client's fonts registered on it.
// `patient`: a restarting daemon has no socket, or refuses, for a moment; keep trying for
// ReconnectWait.
func (c *Client) open(patient bool, generation int) (*connection, *layoutdv1.HelloReply, error) {
	giveUp := time.Now()
	if patient && c.options.ReconnectWait > 0 {
		giveUp = giveUp.Add(c.options.ReconnectWait)
	}
	for {
		conn, hello, err := c.openOnce(giveUp, generation)
		// A daemon being killed can still take a connection into its backlog, then drop it
		// unanswered: that is the daemon not being there yet.
		if errors.Is(err, ErrConnectionLost) && time.Now().Before(giveUp) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		return conn, hello, err
	}
}

func (c *Client) openOnce(giveUp time.Time, generation int) (*connection, *layoutdv1.HelloReply, error) {
	pause := 20 * time.Millisecond
	var socket *net.UnixConn
	for {
		dialer := net.Dialer{Timeout: c.options.Timeout}
		dialed, err := dialer.Dial("unix", c.path)
		if err == nil {
			socket = dialed.(*net.UnixConn)
			break
		}
		waiting := errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EAGAIN)
		if waiting && time.Now().Add(pause).Before(giveUp) {
			time.Sleep(pause)
			if pause *= 2; pause > 500*time.Millisecond {
				pause = 500 * time.Millisecond
			}
			continue
		}
		return nil, nil, failure(Unreachable, err, "cannot connect to layoutd at %s: %v (is the daemon running? set "+
			"Options.SocketPath or LAYOUTD_SOCKET)", c.path, err)
	}
	if !c.options.TrustAnyPeer {
		if err := checkPeer(socket, c.path); err != nil {
			socket.Close()
			return nil, nil, err
		}
	}
	conn := newConnection(socket)
	conn.generation = generation
	ctx, cancel := context.WithTimeout(context.Background(), c.options.Timeout)
	defer cancel()
	reply, err := c.exchange(ctx, conn, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_Hello{
		Hello: &layoutdv1.HelloRequest{ClientName: c.options.ClientName}}})
	if err == nil {
		err = checkHello(reply)
	}
	for _, fonts := range c.registeredFonts() {
		if err != nil {
			break
		}
		var again *layoutdv1.Envelope
		if again, err = c.exchange(ctx, conn, &layoutdv1.Envelope{Body: &layoutdv1.Envelope_RegisterFonts{RegisterFonts: fonts}}); err == nil {
			if refused := again.GetError(); refused != nil {
				err = refusal(refused)
			}
		}
	}
	if err != nil {
		conn.breakWith(err)
		return nil, nil, err
	}
	return conn, reply.GetHelloReply(), nil
}

func (c *Client) registeredFonts() []*layoutdv1.RegisterFontsRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*layoutdv1.RegisterFontsRequest(nil), c.fonts...)
}

func checkHello(reply *layoutdv1.Envelope) error {
	if refused := reply.GetError(); refused != nil {
		return refusal(refused)
	}
	hello := reply.GetHelloReply()
	if hello == nil {
		return failure(Protocol, nil, "the daemon did not answer hello with a hello reply")
	}
	if hello.ProtocolVersion != ProtocolVersion {
		return failure(Unsupported, nil, "layoutd %s speaks protocol %d; this client speaks %d", hello.ServerVersion,
			hello.ProtocolVersion, ProtocolVersion)
	}
	return nil
}

// live is the connection to use: the current one, or a new one when it is lost. A document on
// a lost connection is gone.
func (c *Client) live(document uint64) (*connection, error) {
	c.replacing.Lock()
	defer c.replacing.Unlock()
	c.mu.Lock()
	closed, current := c.closed, c.current
	opened, known := c.documents[document]
	c.mu.Unlock()
	if closed {
		return nil, failure(Unreachable, nil, "the client is closed")
	}
	broken := current.isBroken()
	if document != 0 && known && (opened != current.generation || broken) {
		return nil, documentGone(document)
	}
	if !broken {
		return current, nil
	}
	conn, hello, err := c.open(true, current.generation+1)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.current, c.hello = conn, hello
	if c.closed {
		conn.breakWith(failure(Unreachable, nil, "the client is closed"))
	}
	c.mu.Unlock()
	return conn, nil
}

// exchange sends `request` on `conn` under a new id and waits for its reply.
func (c *Client) exchange(ctx context.Context, conn *connection, request *layoutdv1.Envelope) (*layoutdv1.Envelope, error) {
	id := c.nextID.Add(1)
	envelope := &layoutdv1.Envelope{RequestId: id, DeadlineMs: request.DeadlineMs, Body: request.Body}
	bytes, err := frame(envelope)
	if err != nil {
		return nil, failure(Protocol, err, "the request cannot be encoded: %v", err)
	}
	waiting, err := conn.await(id)
	if err != nil {
		return nil, err
	}
	if err := conn.write(bytes); err != nil {
		return nil, err
	}
	timer := time.NewTimer(c.options.Timeout)
	defer timer.Stop()
	select {
	case reply, ok := <-waiting:
		if !ok {
			return nil, failure(ConnectionLost, nil, "the connection to layoutd was lost before the reply came")
		}
		return reply, nil
	case <-timer.C:
		c.cancel(conn, id)
		return nil, failure(Timeout, nil, "no answer from layoutd within %v", c.options.Timeout)
	case <-ctx.Done():
		c.cancel(conn, id)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, failure(Timeout, ctx.Err(), "no answer from layoutd before the context's deadline")
		}
		return nil, failure(Cancelled, ctx.Err(), "the call was cancelled")
	}
}

// cancel asks the daemon to drop a request nobody waits for any more (best effort).
func (c *Client) cancel(conn *connection, id uint64) {
	conn.forget(id)
	notice := &layoutdv1.Envelope{RequestId: c.nextID.Add(1), Body: &layoutdv1.Envelope_Cancel{Cancel: &layoutdv1.Cancel{RequestId: id}}}
	if bytes, err := frame(notice); err == nil {
		_ = conn.write(bytes)
	}
}

// Call sends a request (its Body set; the id is the client's) and returns the reply; a refusal
// by the daemon is an *Error. Sent again after a lost connection where that is safe.
func (c *Client) Call(ctx context.Context, request *layoutdv1.Envelope) (*layoutdv1.Envelope, error) {
	if request == nil || request.Body == nil {
		return nil, failure(InvalidArgument, nil, "the request has no body")
	}
	for attempt := 0; ; attempt++ {
		reply, err := c.callOnce(ctx, request)
		if err == nil || attempt >= c.options.Retries || !maySendAgain(request, err) {
			return reply, err
		}
	}
}

func (c *Client) callOnce(ctx context.Context, request *layoutdv1.Envelope) (*layoutdv1.Envelope, error) {
	document := documentOf(request)
	for unsent := 0; ; unsent++ {
		conn, err := c.live(document)
		if err != nil {
			return nil, err
		}
		if err := c.checkFeature(request); err != nil {
			return nil, err
		}
		reply, err := c.exchange(ctx, conn, request)
		var failed *Error
		if errors.As(err, &failed) && errors.Is(failed.cause, errUnsent) && unsent == 0 {
			continue // the daemon never saw it (gone while this client was idle): any request may go again
		}
		if errors.Is(err, ErrConnectionLost) && document != 0 {
			return nil, documentGone(document)
		}
		if err != nil {
			return nil, err
		}
		if refused := reply.GetError(); refused != nil {
			if refused.Code == layoutdv1.Error_UNAVAILABLE {
				conn.breakWith(failure(ConnectionLost, nil, "the daemon is shutting down")) // the next call connects again
			}
			return reply, refusal(refused)
		}
		c.remember(request, reply, conn.generation)
		return reply, nil
	}
}

// remember keeps what lives on a connection: documents die with it, fonts go to the next.
// Nearly every call is none of these, and takes no lock here.
func (c *Client) remember(request, reply *layoutdv1.Envelope, generation int) {
	switch body := request.Body.(type) {
	case *layoutdv1.Envelope_OpenDocument:
		c.mu.Lock()
		c.documents[reply.GetDocumentReply().GetDocument()] = generation
		c.mu.Unlock()
	case *layoutdv1.Envelope_CloseDocument:
		c.mu.Lock()
		delete(c.documents, body.CloseDocument.GetDocument())
		c.mu.Unlock()
	case *layoutdv1.Envelope_RegisterFonts:
		c.mu.Lock()
		if generation == c.current.generation {
			c.fonts = append(c.fonts, body.RegisterFonts)
		}
		c.mu.Unlock()
	}
}

func (c *Client) checkFeature(request *layoutdv1.Envelope) error {
	hello := c.Daemon()
	if len(hello.GetFeatures()) == 0 {
		return nil // before 0.3.0 the daemon listed nothing; UNIMPLEMENTED explains
	}
	name := bodyName(request)
	for _, served := range hello.Features {
		if served == name {
			return nil
		}
	}
	return failure(Unsupported, nil, "layoutd %s does not serve %s requests; upgrade the daemon", hello.ServerVersion, name)
}

// bodyName is the Envelope field name of the request's body ("layout", "tag_hit"), as hello's
// features name requests.
func bodyName(request *layoutdv1.Envelope) string {
	message := request.ProtoReflect()
	field := message.WhichOneof(message.Descriptor().Oneofs().ByName("body"))
	if field == nil {
		return ""
	}
	return string(field.Name())
}

func documentOf(request *layoutdv1.Envelope) uint64 {
	switch body := request.Body.(type) {
	case *layoutdv1.Envelope_EditDocument:
		return body.EditDocument.GetDocument()
	case *layoutdv1.Envelope_CloseDocument:
		return body.CloseDocument.GetDocument()
	}
	return 0
}

// changesNothing says whether sending the request twice is sending it once.
func changesNothing(request *layoutdv1.Envelope) bool {
	switch request.Body.(type) {
	case *layoutdv1.Envelope_Hello, *layoutdv1.Envelope_Layout, *layoutdv1.Envelope_Justify, *layoutdv1.Envelope_Render,
		*layoutdv1.Envelope_Tags, *layoutdv1.Envelope_TagHit, *layoutdv1.Envelope_TagStyle, *layoutdv1.Envelope_HitTest,
		*layoutdv1.Envelope_Fonts, *layoutdv1.Envelope_Stats, *layoutdv1.Envelope_RegisterFonts:
		return true
	}
	return false
}

// maySendAgain: the connection was lost before the reply to a request that changes nothing,
// or the daemon said it is stopping (docs/protocol.md, "Retrying").
func maySendAgain(request *layoutdv1.Envelope, err error) bool {
	var failed *Error
	if !errors.As(err, &failed) {
		return false
	}
	switch failed.Code {
	case ConnectionLost:
		return changesNothing(request)
	case Unavailable:
		return true
	}
	return false
}
