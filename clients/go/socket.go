package layoutd

import (
	"fmt"
	"net"
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// ServiceSocket is the systemd service's socket.
const ServiceSocket = "/run/layoutd/layoutd.sock"

// FindSocket is where the daemon listens, found as layoutctl finds it: explicit, else
// $LAYOUTD_SOCKET, else the service's socket when there is one, else
// $XDG_RUNTIME_DIR/layoutd.sock, else /tmp/layoutd-<uid>/layoutd.sock.
func FindSocket(explicit string) string {
	if explicit != "" {
		return explicit
	}
	if path := os.Getenv("LAYOUTD_SOCKET"); path != "" {
		return path
	}
	if info, err := os.Stat(ServiceSocket); err == nil && info.Mode()&os.ModeSocket != 0 {
		return ServiceSocket
	}
	if runtime := os.Getenv("XDG_RUNTIME_DIR"); runtime != "" {
		return runtime + "/layoutd.sock"
	}
	return fmt.Sprintf("/tmp/layoutd-%d/layoutd.sock", os.Getuid())
}

// checkPeer refuses a daemon not run by this user, root or the service's layoutd user
// (SO_PEERCRED): a socket in a shared place can be another user's daemon, which would read the
// text sent.
func checkPeer(conn *net.UnixConn, path string) error {
	raw, err := conn.SyscallConn()
	if err != nil {
		return failure(Unreachable, err, "refusing the daemon at %s: %v", path, err)
	}
	var credentials *syscall.Ucred
	var asked error
	if err := raw.Control(func(fd uintptr) {
		credentials, asked = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil || asked != nil {
		return failure(Unreachable, asked, "refusing the daemon at %s: the kernel did not say who serves it", path)
	}
	uid := credentials.Uid
	if uid == uint32(os.Getuid()) || uid == 0 {
		return nil
	}
	if service, err := user.Lookup("layoutd"); err == nil {
		if id, err := strconv.ParseUint(service.Uid, 10, 32); err == nil && uint32(id) == uid {
			return nil
		}
	}
	return failure(Unreachable, nil, "refusing the daemon at %s: it is served by uid %d (pid %d), not by you, root or the "+
		"layoutd service; your text is not sent to it", path, uid, credentials.Pid)
}
