package sim

// wakeTree orders the workload's clients by their next wake-up, in a tournament tree: each
// leaf holds one client's wake-up, each inner node the earlier of its two children, the left
// one on a tie. As a left subtree holds only lower-numbered clients than its right sibling,
// the root is the client a scan of every client in order would pick: the earliest, and the
// lowest-numbered of those tied. Changing one client's wake-up replays only the log2(n)
// matches on its way to the root, where the scan visits every client each step.
type wakeTree struct {
	leaves int      // a power of two, at least the number of clients
	node   []wakeup // node[1] is the root, node[leaves+i] client i's leaf; node[0] is unused
}

// wakeup is one client's wake-up, or on a leaf past the last client, none: client -1 at
// noWakeup, which every client wins against.
type wakeup struct {
	at     Duration
	client int32
}

const noWakeup = Duration(1<<63 - 1)

// reset rebuilds the tree for the clients and their wake-ups.
func (t *wakeTree) reset(clients []client) {
	t.leaves = 1
	for t.leaves < len(clients) {
		t.leaves *= 2
	}
	t.node = append(t.node[:0], make([]wakeup, 2*t.leaves)...)
	for i := range t.leaves {
		t.node[t.leaves+i] = wakeup{at: noWakeup, client: -1}
		if i < len(clients) {
			t.node[t.leaves+i] = wakeup{at: clients[i].next, client: int32(i)}
		}
	}
	for k := t.leaves - 1; k >= 1; k-- {
		t.play(k)
	}
}

// first returns the client that wakes first and its wake-up, or client -1 when there are no
// clients.
func (t *wakeTree) first() wakeup { return t.node[1] }

// set gives client i the wake-up at and replays its matches up to the root.
func (t *wakeTree) set(i int, at Duration) {
	k := t.leaves + i
	t.node[k].at = at
	for k /= 2; k >= 1; k /= 2 {
		t.play(k)
	}
}

// play decides inner node k: the earlier of its children, the left one on a tie.
func (t *wakeTree) play(k int) {
	l, r := t.node[2*k], t.node[2*k+1]
	if r.at < l.at {
		l = r
	}
	t.node[k] = l
}
