package layoutd

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"syscall"
	"time"

	"google.golang.org/protobuf/proto"

	"layoutd/clients/go/layoutdv1"
)

// maxReplyBytes bounds a reply (a glyph per character makes them much larger than requests).
const maxReplyBytes = 256 << 20

// connection is one socket to the daemon: the replies awaited on it by request id, and the
// reader goroutine that hands each to its caller. Once broken it stays broken; the client
// makes a new one (a new generation).
type connection struct {
	conn       *net.UnixConn
	generation int
	writing    sync.Mutex // frames go out whole, one at a time
	mu         sync.Mutex
	pending    map[uint64]chan *layoutdv1.Envelope
	// batches awaiting their items: every reply with the id goes to its channel, in order
	streams map[uint64]chan *layoutdv1.Envelope
	broken  error
	// the error the daemon sent, under no request's id, before it closed (a frame past its
	// max_frame_bytes); readDone is closed when the reader stops
	farewell *layoutdv1.Error
	readDone chan struct{}
}

func newConnection(conn *net.UnixConn) *connection {
	c := &connection{conn: conn, pending: map[uint64]chan *layoutdv1.Envelope{}, streams: map[uint64]chan *layoutdv1.Envelope{},
		readDone: make(chan struct{})}
	go c.read()
	return c
}

// isBroken says whether nothing more can go over the connection.
func (c *connection) isBroken() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.broken != nil
}

// breakWith ends the connection: every call waiting on it learns it was lost.
func (c *connection) breakWith(reason error) {
	c.mu.Lock()
	if c.broken == nil {
		c.broken = reason
		for id, waiting := range c.pending {
			close(waiting)
			delete(c.pending, id)
		}
		for id, stream := range c.streams {
			close(stream)
			delete(c.streams, id)
		}
	}
	c.mu.Unlock()
	c.conn.Close()
}

// await registers request `id`; its reply comes on the channel, which is closed when the
// connection breaks first.
func (c *connection) await(id uint64) (chan *layoutdv1.Envelope, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return nil, c.broken
	}
	waiting := make(chan *layoutdv1.Envelope, 1)
	c.pending[id] = waiting
	return waiting, nil
}

func (c *connection) forget(id uint64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// stream registers batch `id`: each of its replies comes on the channel, in order, until
// `endStream`; the channel is closed when the connection breaks first. The reader waits while
// the channel is full, so a batch read slowly holds back the connection's other replies.
func (c *connection) stream(id uint64) (chan *layoutdv1.Envelope, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return nil, c.broken
	}
	replies := make(chan *layoutdv1.Envelope, 256)
	c.streams[id] = replies
	return replies, nil
}

// endStream: nobody reads batch `id` any more; what still comes for it is dropped.
func (c *connection) endStream(id uint64) {
	c.mu.Lock()
	delete(c.streams, id)
	c.mu.Unlock()
}

// errUnsent: the write failed before a byte went, so the daemon never saw the request.
var errUnsent = errors.New("nothing was sent")

// write sends one frame whole.
func (c *connection) write(frame []byte) error {
	c.writing.Lock()
	defer c.writing.Unlock()
	written, err := c.conn.Write(frame)
	if err == nil {
		return nil
	}
	// The daemon may have answered before it closed: that answer, not the broken pipe.
	select {
	case <-c.readDone:
	case <-time.After(500 * time.Millisecond):
	}
	c.mu.Lock()
	farewell := c.farewell
	c.mu.Unlock()
	if farewell != nil {
		c.breakWith(refusal(farewell))
		return refusal(farewell)
	}
	lost := failure(ConnectionLost, err, "sending to layoutd failed: %v", err)
	c.breakWith(lost)
	if written == 0 && (errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)) {
		return &Error{Code: ConnectionLost, Message: lost.Message, cause: errUnsent}
	}
	return lost
}

func (c *connection) read() {
	defer close(c.readDone)
	header := make([]byte, 4)
	for {
		if _, err := io.ReadFull(c.conn, header); err != nil {
			c.breakWith(failure(ConnectionLost, err, "the daemon closed the connection"))
			return
		}
		length := binary.BigEndian.Uint32(header)
		if length > maxReplyBytes {
			c.breakWith(failure(Protocol, nil, "reply of %d bytes is over the client's limit", length))
			return
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(c.conn, body); err != nil {
			c.breakWith(failure(ConnectionLost, err, "the daemon closed the connection"))
			return
		}
		reply := &layoutdv1.Envelope{}
		if err := proto.Unmarshal(body, reply); err != nil {
			c.breakWith(failure(Protocol, err, "reply is not an Envelope: %v", err))
			return
		}
		c.mu.Lock()
		if reply.RequestId == 0 && reply.GetError() != nil {
			c.farewell = reply.GetError()
		}
		waiting := c.pending[reply.RequestId]
		delete(c.pending, reply.RequestId)
		stream := c.streams[reply.RequestId]
		c.mu.Unlock()
		if waiting != nil {
			waiting <- reply // replies nobody waits for (timed out) are dropped
		} else if stream != nil {
			c.deliver(stream, reply.RequestId, reply)
		}
	}
}

// deliver hands a batch's reply to its reader, unless the batch is ended meanwhile.
func (c *connection) deliver(stream chan *layoutdv1.Envelope, id uint64, reply *layoutdv1.Envelope) {
	for {
		select {
		case stream <- reply:
			return
		case <-time.After(10 * time.Millisecond):
			c.mu.Lock()
			current, open := c.streams[id]
			c.mu.Unlock()
			if !open || current != stream {
				return
			}
		}
	}
}

// frame is an Envelope's frame: a 4-byte big-endian length, then its bytes.
func frame(envelope *layoutdv1.Envelope) ([]byte, error) {
	body, err := proto.Marshal(envelope)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(out, uint32(len(body)))
	copy(out[4:], body)
	return out, nil
}
