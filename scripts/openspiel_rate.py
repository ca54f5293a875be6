#!/usr/bin/env python3
"""OpenSpiel's MCTS simulations per second from the empty 12x12 Twixt board.

usage: openspiel_rate.py [SIMS] [SEED]
Times one MCTSBot.step of SIMS simulations (one random rollout each, UCT c=2, MCTS-solver on:
the bot of ../../shared/opponents/openspiel_mcts.py) and prints "simulations per second: N".
"""
import sys
import time

import pyspiel


def main():
    sims = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    game = pyspiel.load_game("twixt(board_size=12,ansi_color_output=false)")
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000, True, seed, False)
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.step(state)
    seconds = time.perf_counter() - start
    print(f"simulations: {sims} in {seconds:.2f} s (empty board, one thread)")
    print(f"simulations per second: {round(sims / seconds)}")


if __name__ == "__main__":
    main()
