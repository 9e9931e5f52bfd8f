// randombot plays any game the arena hosts with a uniformly random legal action, and prints one
// JSON line per finished match on stdout.
package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"sync"
	"time"

	pb "tourney/v1"
	"tourneybot"
)

type randomBot struct {
	mu  sync.Mutex // Act runs on one goroutine per request; rand.Rand is not safe for that
	rng *rand.Rand
}

func (b *randomBot) Act(observation map[string]any, legal []*pb.Action, request *pb.ActionRequest) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rng.Intn(len(legal))
}

func (b *randomBot) MatchEnded(ended *pb.MatchEnded) {
	line, _ := json.Marshal(map[string]any{"match_id": ended.GetMatchId(), "seat": ended.GetSeat(),
		"ranks": ended.GetRanks(), "reason": ended.GetReason(), "termination": ended.GetTermination(),
		"points": ended.GetPoints()})
	fmt.Println(string(line))
}

func main() {
	os.Exit(tourneybot.Main(&randomBot{rng: rand.New(rand.NewSource(time.Now().UnixNano()))}, "go-random"))
}
