package pins

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestTry(t *testing.T) {
	if os.Getenv("PINS_TRY") == "" {
		t.Skip()
	}
	t0 := time.Now()
	r, err := Reproduce(nil)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(r.Markdown(), time.Since(t0))
}
