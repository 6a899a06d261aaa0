package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"gitui/model"
)

// lock takes DIR/lock with O_EXCL, writing "PID HOST". A lock of a live process on this
// host is refused; one whose process is gone is taken over. A lock from another host
// cannot be checked and is refused with the way out.
func (d *RunDir) lock() error {
	path := filepath.Join(d.Path, LockFile)
	host, _ := os.Hostname()
	for attempt := 0; attempt < 3; attempt++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d %s\n", os.Getpid(), host)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(path)
				return unwritable(werr, fmt.Sprintf("the run directory %s is not writable", d.Path), "choose another --out")
			}
			return nil
		}
		if !errors.Is(err, os.ErrExist) {
			return unwritable(err, fmt.Sprintf("the run directory %s is not writable", d.Path), "choose another --out")
		}
		b, rerr := model.ReadFileCapped(path)
		if rerr != nil {
			continue // released meanwhile
		}
		var pid int
		var lhost string
		fmt.Sscan(string(b), &pid, &lhost)
		switch {
		case pid <= 0:
			// An empty or torn lock file: its writer died between create and write.
		case lhost != "" && lhost != host:
			return inputErr(fmt.Errorf("%s is locked by gitui process %d on host %s: wait for it to finish, or remove %s if that process is gone", d.Path, pid, lhost, path))
		case ProcessAlive(pid):
			return inputErr(fmt.Errorf("%s is in use by gitui process %d: wait for it to finish, or choose another --out", d.Path, pid))
		}
		d.Warning = fmt.Sprintf("took over the lock of %s from process %d, which is gone", d.Path, pid)
		os.Remove(path)
	}
	return inputErr(fmt.Errorf("cannot lock %s: another process keeps taking it; choose another --out", d.Path))
}

// ProcessAlive reports whether a process with this PID exists on this host (signal 0 is
// delivered or refused for permission: both mean it exists) and is not a zombie (killed,
// not yet reaped by its parent: on Linux, state Z in /proc/PID/stat). It is the one
// liveness check of the lock: OpenRunDir takes over a lock whose process is not alive,
// and Status reports a run as running only when it is.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'Z' {
			return false
		}
	}
	return true
}

func (d *RunDir) unlock() {
	os.Remove(filepath.Join(d.Path, LockFile))
}

// readLock returns the PID and host of the lock file of dir (0 and "" when there is none
// or it is torn).
func readLock(dir string) (pid int, host string) {
	b, err := model.ReadFileCapped(filepath.Join(dir, LockFile))
	if err != nil {
		return 0, ""
	}
	fmt.Sscan(string(b), &pid, &host)
	return pid, host
}
