package sim

import (
	"math/rand/v2"
	"testing"
)

// TestWakeTreeAgainstScan checks the wake-up tree against the obvious scan of every client in
// order, keeping the first with the earliest wake-up. Clients wake at few distinct times, so
// ties are common, and are added and removed at the end as ClientsCmd does.
func TestWakeTreeAgainstScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var clients []client
	var tree wakeTree
	tree.reset(clients)
	now := Duration(0)
	for step := range 200_000 {
		switch op := r.IntN(100); {
		case op < 3 && len(clients) < 70:
			clients = append(clients, client{next: now + Duration(r.IntN(3))})
			tree.reset(clients)
		case op < 5 && len(clients) > 0:
			clients = clients[:len(clients)-1]
			tree.reset(clients)
		default:
			want := -1
			for i := range clients {
				if want < 0 || clients[i].next < clients[want].next {
					want = i
				}
			}
			w := tree.first()
			if int(w.client) != want || want >= 0 && w.at != clients[want].next {
				t.Fatalf("step %d, %d clients: the tree picks client %d at %v, the scan %d", step, len(clients), w.client, w.at, want)
			}
			if want >= 0 {
				now = clients[want].next
				clients[want].next = now + Duration(r.IntN(4))
				tree.set(want, clients[want].next)
			}
		}
	}
}
