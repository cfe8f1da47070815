"""The C's learning rule: the network learns from the games it plays.

The idea in one sentence: play a whole game (an episode) against a player
that moves at random, look at the result (the reward), then nudge the
network towards the moves of games it won or tied and away from the moves
of games it lost.

What kind of rule this is, and is not. The net's policy is its softmax
over the cells. For wins and ties, the target "all probability on the move
played" makes backprop step up the gradient of log p(move), scaled by the
reward (and by the move's weight below): the form of REINFORCE's update,
with no baseline (Williams, 1992; Sutton and Barto, 2nd ed., section
13.3). It is not REINFORCE. REINFORCE's step estimates the gradient of the
policy's expected return only for moves drawn from that policy; the net
plays its favourite move (the argmax), never a drawn one, so the step
estimates no such gradient. And for losses the target spreads the
probability over the other empty cells, where REINFORCE would step down
the gradient of log p(move): another step, a heuristic. So the rule
borrows REINFORCE's form for wins and ties, and nothing more. Because the
net never explores, a move it does not favour is rarely tried, and a flaw
can last for many games. A run's fate depends on its seed: of 22 seeds
beatable at 20,000 games, 18 were still
beatable at 200,000 (docs/measurements.md; qlearn.py explores).

Ports learn_from_game, play_random_game and train_against_random from
antirez's ttt.c, in its order: each function calls the ones above it.
"""

import collections

from . import game as tic_tac_toe
from .game import BOTH, O, TIE, X
from .nn import backprop, forward_pass, get_computer_move

LEARNING_RATE = 0.1      # how far one backprop step moves the weights
REWARD_WIN = 1.0         # the network made a line
REWARD_TIE = 0.3         # a tie is worth something against a random player
REWARD_LOSS = -2.0       # losing hurts more than winning pleases

# The knobs of learning, passed along as one value.
Settings = collections.namedtuple(
    "Settings", "learning_rate reward_win reward_tie reward_loss")
DEFAULT_SETTINGS = Settings(LEARNING_RATE, REWARD_WIN, REWARD_TIE, REWARD_LOSS)


def game_reward(winner, nn_symbol, settings=DEFAULT_SETTINGS):
    """Return the reward of a finished game for the network's side: the
    Settings' reward_win, reward_tie or reward_loss (a float). Takes the
    winner (X, O or TIE) and the side the network played."""
    if winner == TIE:
        return settings.reward_tie
    return settings.reward_win if winner == nn_symbol else settings.reward_loss


def learn_from_game(net, move_history, winner, nn_symbol=O, settings=DEFAULT_SETTINGS,
                    rules=tic_tac_toe):
    """Update the network from one finished game (C: learn_from_game).

    Takes the network, the game's moves (cells 0-8; X moved first, so X's
    moves are at the even indices), the winner (X, O or TIE), the side the
    network played (O, or X: the C's nn_moves_even = 0), the Settings and
    the game (game.py; connect4.py, where a move is a column 0-6).
    Each of the network's moves becomes one supervised example: the board
    before it, and a target that says "more of this move" after a good
    result, "any other move" after a bad one. Returns nothing.
    """
    reward = game_reward(winner, nn_symbol, settings)
    num_moves = len(move_history)
    # Replay the game, keeping the board before each move.
    board = rules.init_game()
    for move_idx, move in enumerate(move_history):
        symbol = X if move_idx % 2 == 0 else O
        if symbol == nn_symbol:
            forward_pass(net, rules.board_to_inputs(board))
            # Later moves count more: near the end of a game fewer moves are
            # left and each one decides more. The C's author found that this
            # weighting makes a large difference; try other values.
            #
            # LEARNING OPPORTUNITY: this is not temporal-difference learning,
            # which learns from how the predicted value changes from one move
            # to the next; here every move waits for the final result, the
            # return, as Monte Carlo methods do. Sutton and Barto (Turing
            # Award 2024), "Reinforcement Learning: An Introduction", 2nd
            # ed., chapter 5 (Monte Carlo) and chapter 6 (TD learning);
            # qlearn.py is a TD method.
            move_importance = 0.5 + 0.5 * move_idx / num_moves
            scaled_reward = reward * move_importance
            target = [0.0] * len(net.outputs)   # one per move: 9 cells (or 7 columns)
            if scaled_reward >= 0:
                # Good outcome: all probability on the move that was played,
                # so backprop's step is the gradient of log p(move) (times
                # the reward): REINFORCE's form, but for a move the net chose
                # as its favourite, not drew from p (see the module's
                # docstring: not REINFORCE's gradient estimate).
                target[move] = 1.0
            else:
                # Bad outcome: spread it over the other moves that were legal,
                # which pushes the move played down. (No other cell is left
                # only after X's 9th move, a tie or a win, with that reward
                # set below 0; the target then stays all zeros. The C divides
                # by zero there, which its rewards, +0.3 and +1, never reach.)
                others = [c for c in rules.legal_moves(board) if c != move]
                for cell in others:
                    target[cell] = 1.0 / len(others)
            backprop(net, target, settings.learning_rate, scaled_reward)
        rules.play_move(board, move, symbol)


def play_against_random(choose_move, rng, nn_symbol=O, opponent=None, rules=tic_tac_toe):
    """Play one game: choose_move(board) -> cell for the net's side (X or
    O), opponent(board, rng) -> cell for the other: by default the random
    player of `rules` (game.py, or connect4.py), as in the C. Returns
    (winner, move_history): X, O or TIE, and the moves played. The game
    loop of the C's play_random_game, shared with qlearn.play_q_game."""
    opponent = opponent or rules.get_random_move
    board = rules.init_game()
    move_history = []
    winner = TIE   # unless someone makes a line before the board is full
    for move_idx in range(rules.BOARD_CELLS):   # at most one move per cell
        symbol = X if move_idx % 2 == 0 else O
        move = choose_move(board) if symbol == nn_symbol else opponent(board, rng)
        move_history.append(move)
        # Only the player who just moved can have made a line, through the
        # cell just played: the C checks every line after every move.
        if rules.play_move(board, move, symbol):
            winner = symbol
            break
    return winner, move_history


def play_random_game(net, rng, nn_symbol=O, settings=DEFAULT_SETTINGS,
                     opponent=None, rules=tic_tac_toe):
    """Play one game, the network against a random player, then learn from it.

    Takes the network, a random.Random (used only by the opponent), the
    network's side (X or O; X moves first), the Settings and the opponent
    (see play_against_random). Returns (winner, move_history): X, O or
    TIE, and the list of cells played. C: play_random_game.
    """
    # LEARNING OPPORTUNITY: each game is one sampled episode, and learning
    # waits for its end (a Monte Carlo method). The net plays greedily, so
    # the episodes only ever sample its current favourite moves. Monte Carlo
    # Tree Search (mcts.py) samples with a plan instead: it grows a tree of
    # future positions and spends its playouts on the most promising
    # branches. AlphaGo combined MCTS with deep networks that proposed moves
    # and judged positions (Silver et al., Nature, 2016); Sutton and Barto,
    # section 8.11.
    winner, move_history = play_against_random(
        lambda board: get_computer_move(net, board, rules), rng, nn_symbol, opponent, rules)
    learn_from_game(net, move_history, winner, nn_symbol, settings, rules)
    return winner, move_history


def side_of_game(nn_symbol, game):
    """Return the side (X or O) the net plays in game `game` (0-based):
    nn_symbol itself, or with BOTH X in even games and O in odd ones.

    One net can play both sides with the C's 18 inputs unchanged: the
    inputs already say whose turn it is (X moves when both have as many
    pieces), so the net's outputs for X's positions and for O's never
    meet. The C's README suggests an extra input for the side instead; it
    would say nothing new, and a 19-input file is one the C cannot read.
    """
    if nn_symbol != BOTH:
        return nn_symbol
    return X if game % 2 == 0 else O


def train_against_random(net, num_games, rng, nn_symbol=O, settings=DEFAULT_SETTINGS,
                         report=None, opponent=None, rules=tic_tac_toe):
    """Train for `num_games` episodes (C: train_against_random).

    Takes the network (trained in place), the number of games, a
    random.Random, the network's side (X, O or BOTH: see side_of_game),
    the Settings and the opponent, opponent(board, rng) -> cell (default:
    the random player; mcts.mcts_opponent gives another). After each game,
    if `report` is given, calls report(net, games_played, winner, side);
    if it returns True, training stops there. Returns the number of games
    played.

    The C counts wins, losses and ties here and prints them every 10,000
    games; here `report` does (ttt-train prints the C's line).
    """
    for game in range(num_games):
        side = side_of_game(nn_symbol, game)
        winner, _ = play_random_game(net, rng, side, settings, opponent, rules)
        if report is not None and report(net, game + 1, winner, side):
            return game + 1
    return num_games
