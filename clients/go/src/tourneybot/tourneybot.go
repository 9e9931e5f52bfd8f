// Package tourneybot is the Go SDK for the tourney Arena: implement Bot, call Run.
//
//	type first struct{}
//	func (first) Act(obs map[string]any, legal []*pb.Action, req *pb.ActionRequest) int { return 0 }
//	func main() { os.Exit(tourneybot.Main(first{})) }
//
// Run opens one Play stream, says Hello, answers every ActionRequest with the index Act returns
// and returns when the arena closes the stream or MaxMatches matches have ended. Each request is
// answered on its own goroutine, so a slow decision in one match never holds up another; the
// stream allows one writer at a time, so replies go through one mutex. In real time a request the
// arena withdrew while Act ran gets no reply (the newer request is answered instead).
package tourneybot

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "tourney/v1"
)

// Bot decides. Act returns an index into legal; a negative index sends no reply (the arena then
// rules a timeout).
type Bot interface {
	Act(observation map[string]any, legal []*pb.Action, request *pb.ActionRequest) int
}

// MatchWatcher is optional: a Bot that also implements it hears of every finished match.
type MatchWatcher interface {
	MatchEnded(ended *pb.MatchEnded)
}

// maxWithdrawn bounds the withdrawn requests remembered per stream (the oldest are forgotten first):
// enough to recognise any reply still in flight, however long a session lasts.
const maxWithdrawn = 4096

// withdrawnSet remembers withdrawn (match id, request id) pairs for the goroutines that answer.
type withdrawnSet struct {
	mu    sync.Mutex
	seen  map[string]bool
	order []string
}

func requestKey(matchID string, requestID uint64) string {
	return matchID + "/" + strconv.FormatUint(requestID, 10)
}

func (w *withdrawnSet) add(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen[key] = true
	w.order = append(w.order, key)
	if len(w.order) > maxWithdrawn {
		delete(w.seen, w.order[0])
		w.order = w.order[1:]
	}
}

func (w *withdrawnSet) has(key string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen[key]
}

// Config says where to connect and as whom; FromEnv fills it the way a launcher sets it.
type Config struct {
	Address              string   // host:port of the arena
	Name                 string   // the bot's name
	Token                string   // from `tourney bots add NAME`; empty for --allow-anonymous
	Games                []string // empty: every game
	MaxConcurrentMatches uint32   // matches at once (0 means 1)
	MaxMatches           int      // leave after this many matches; 0: play until the arena closes
}

// FromEnv reads TOURNEY_ARENA, TOURNEY_BOT_NAME, TOURNEY_TOKEN, TOURNEY_GAMES (comma-separated),
// TOURNEY_CONCURRENCY and TOURNEY_MATCHES, with defaultName when no name is set.
func FromEnv(defaultName string) (Config, error) {
	config := Config{Address: "127.0.0.1:50051", Name: defaultName, MaxConcurrentMatches: 4}
	if v := os.Getenv("TOURNEY_ARENA"); v != "" {
		config.Address = v
	}
	if v := os.Getenv("TOURNEY_BOT_NAME"); v != "" {
		config.Name = v
	}
	config.Token = os.Getenv("TOURNEY_TOKEN")
	for _, g := range strings.Split(os.Getenv("TOURNEY_GAMES"), ",") {
		if g != "" {
			config.Games = append(config.Games, g)
		}
	}
	if v := os.Getenv("TOURNEY_CONCURRENCY"); v != "" {
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil || n == 0 {
			return config, fmt.Errorf("TOURNEY_CONCURRENCY=%q is not a positive whole number: set e.g. 4", v)
		}
		config.MaxConcurrentMatches = uint32(n)
	}
	if v := os.Getenv("TOURNEY_MATCHES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return config, fmt.Errorf("TOURNEY_MATCHES=%q is not a whole number: set e.g. 10", v)
		}
		config.MaxMatches = n
	}
	return config, nil
}

// Observation is the full observation as a map, from the json field every game message carries.
func Observation(observation *pb.Observation) map[string]any {
	var text string
	switch game := observation.GetGame().(type) {
	case *pb.Observation_TinyNinjas:
		text = game.TinyNinjas.GetJson()
	case *pb.Observation_NinjaVersusNinja:
		text = game.NinjaVersusNinja.GetJson()
	case *pb.Observation_MaitreNinja:
		text = game.MaitreNinja.GetJson()
	case *pb.Observation_NinjaArena:
		text = game.NinjaArena.GetJson()
	case *pb.Observation_Generic:
		text = game.Generic.GetJson()
	}
	data := map[string]any{}
	if text != "" {
		_ = json.Unmarshal([]byte(text), &data) // the arena always sends an object; a bad one reads as empty
	}
	return data
}

// Run plays until the arena closes the stream or config.MaxMatches matches have ended, and
// returns the finished matches. A refused Hello or an unreachable arena is an error.
func Run(ctx context.Context, config Config, bot Bot) ([]*pb.MatchEnded, error) {
	conn, err := grpc.Dial(config.Address, grpc.WithInsecure()) // Debian's grpc 1.33 predates credentials/insecure
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := pb.NewArenaClient(conn).Play(ctx)
	if err != nil {
		return nil, err
	}
	var writing sync.Mutex
	send := func(message *pb.BotMessage) {
		writing.Lock()
		defer writing.Unlock()
		_ = stream.Send(message) // a send on a closed stream fails; Recv reports how it ended
	}
	slots := config.MaxConcurrentMatches
	if slots == 0 {
		slots = 1
	}
	send(&pb.BotMessage{Kind: &pb.BotMessage_Hello{Hello: &pb.Hello{
		BotName: config.Name, Token: config.Token, Games: config.Games, MaxConcurrentMatches: slots,
	}}})
	var ended []*pb.MatchEnded
	withdrawn := &withdrawnSet{seen: map[string]bool{}}
	var answering sync.WaitGroup
	defer answering.Wait()
	for {
		message, err := stream.Recv()
		if err == io.EOF {
			return ended, nil
		}
		if err != nil {
			if status.Code(err) == codes.Canceled && ctx.Err() != nil {
				return ended, nil
			}
			return ended, err
		}
		switch kind := message.GetKind().(type) {
		case *pb.ArenaMessage_Welcome:
			fmt.Fprintf(os.Stderr, "bot '%s' connected to the arena at %s; waiting for matches.\n",
				kind.Welcome.GetBotName(), config.Address)
		case *pb.ArenaMessage_ActionRequest:
			request := kind.ActionRequest
			answering.Add(1)
			go func() {
				defer answering.Done()
				index := bot.Act(Observation(request.GetObservation()), request.GetLegalActions(), request)
				if index < 0 || withdrawn.has(requestKey(request.GetMatchId(), request.GetRequestId())) {
					return
				}
				send(&pb.BotMessage{Kind: &pb.BotMessage_Reply{Reply: &pb.ActionReply{
					MatchId: request.GetMatchId(), RequestId: request.GetRequestId(), ActionIndex: uint32(index),
				}}})
			}()
		case *pb.ArenaMessage_MatchEnded:
			ended = append(ended, kind.MatchEnded)
			if watcher, ok := bot.(MatchWatcher); ok {
				watcher.MatchEnded(kind.MatchEnded)
			}
			if config.MaxMatches > 0 && len(ended) >= config.MaxMatches {
				writing.Lock()
				_ = stream.CloseSend() // leave politely: the arena ends its side
				writing.Unlock()
			}
		case *pb.ArenaMessage_Withdrawn:
			withdrawn.add(requestKey(kind.Withdrawn.GetMatchId(), kind.Withdrawn.GetRequestId()))
		case *pb.ArenaMessage_Error:
			report := kind.Error
			if report.GetCode() == "unknown_request" && withdrawn.has(requestKey(report.GetMatchId(), report.GetRequestId())) {
				continue // our reply crossed the withdrawal on the wire: nobody's fault
			}
			fmt.Fprintf(os.Stderr, "arena: %s: %s\n", report.GetCode(), report.GetMessage())
		}
	}
}

// Main runs bot with the settings from the environment and returns the exit status for os.Exit:
// 0 when the session ended normally, 2 (after one sentence on stderr) when the arena refused the
// bot or could not be reached.
func Main(bot Bot, defaultName string) int {
	config, err := FromEnv(defaultName)
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v.\n", err)
		return 2
	}
	if _, err := Run(context.Background(), config, bot); err != nil {
		fix := "start it with `tourney serve` or set TOURNEY_ARENA to its host:port"
		if status.Code(err) == codes.Unauthenticated {
			fix = "set TOURNEY_TOKEN to the token `tourney bots add NAME` printed, or serve with --allow-anonymous"
		}
		fmt.Fprintf(os.Stderr, "error: cannot play on the arena at %s (%s): %s.\n", config.Address,
			status.Convert(err).Message(), fix)
		return 2
	}
	return 0
}
