//go:build !js

package e2e

import (
	"context"
	"net/url"
	"sync"

	cdpnetwork "github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// requestLog records the requests of one tab that leave the site's origin. The site promises
// to make none (its Content-Security-Policy allows only 'self', data: and blob:), so any
// such request fails the test that saw it.
type requestLog struct {
	mu   sync.Mutex
	away []string
}

// collect subscribes to the tab's requests now; the Network domain must be enabled (see
// network) for them to arrive.
func (l *requestLog) collect(ctx context.Context, base string) error {
	site, err := url.Parse(base)
	if err != nil {
		return err
	}
	requests := chromedp.Events(ctx, cdpnetwork.RequestWillBeSent)
	go func() {
		for e, err := range requests {
			if err != nil {
				return
			}
			if e.Request == nil {
				continue
			}
			u, err := url.Parse(e.Request.URL)
			if err != nil || u.Scheme == "data" || u.Scheme == "blob" || u.Scheme == "about" {
				continue
			}
			if u.Scheme != site.Scheme || u.Host != site.Host {
				l.mu.Lock()
				l.away = append(l.away, e.Request.Method+" "+e.Request.URL+" (from "+e.DocumentURL+")")
				l.mu.Unlock()
			}
		}
	}()
	return nil
}

// offOrigin returns the requests that left the site, as "METHOD URL (from DOCUMENT)".
func (l *requestLog) offOrigin() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.away...)
}
