"""Monte Carlo Tree Search: an opponent that plans by sampling games.

The idea in one sentence: to choose a move, play many random games
(playouts) from the position, and spend them on the moves that have done
well so far, while still giving every move a chance; then play the move
tried most.

Each playout walks four steps (Browne et al., "A Survey of Monte Carlo
Tree Search Methods", IEEE TCIAIG, 2012, section 3.1): selection down the
tree by UCB1, expansion by one new position, a random simulation to the
end, and backpropagation of the result up the path. UCB1 as the selection
rule makes this UCT (Kocsis and Szepesvari, "Bandit based Monte-Carlo
Planning", ECML 2006). No network and no learning: it is a training
opponent (learn.train_against_random's `opponent`) that, unlike the
random player, punishes a net's mistakes. No C counterpart.
"""

import math

from .game import BOARD_CELLS, EMPTY, TIE, check_game_over, get_random_move, is_winning_move, \
    opponent, to_move

PLAYOUTS = 200               # random games per move: more plays better, slower
EXPLORATION = math.sqrt(2)   # UCB1's c for results in [0, 1] (Kocsis and Szepesvari)


class Node:
    """A position in the search tree: reached by `move` (a cell; None at
    the root), played by `player` (X or O). `untried` holds the moves not
    yet expanded; `score` sums the results of the playouts through here
    for `player` (1 a win, 0.5 a tie, 0 a loss), `visits` counts them."""

    __slots__ = ("move", "player", "parent", "children", "untried", "winner", "visits", "score")

    def __init__(self, move, player, parent, board, winner=None):
        self.move, self.player, self.parent, self.winner = move, player, parent, winner
        self.children, self.visits, self.score = [], 0, 0.0
        # A finished game has no moves to try.
        self.untried = [] if winner else [c for c in range(BOARD_CELLS) if board[c] == EMPTY]


def ucb1(child, parent_visits):
    """Return UCB1 of a visited `child`: its mean result, plus a bonus that
    grows for moves tried rarely (Auer et al. 2002; Browne et al., 3.3)."""
    mean = child.score / child.visits
    return mean + EXPLORATION * math.sqrt(math.log(parent_visits) / child.visits)


def simulate(board, player, rng):
    """Play random moves on `board` (changed in place), `player` first,
    until the game ends; return the winner (X, O or TIE)."""
    while True:
        move = get_random_move(board, rng)
        board[move] = player
        if is_winning_move(board, move):
            return player
        if EMPTY not in board:
            return TIE
        player = opponent(player)


def mcts_move(board, rng, playouts=PLAYOUTS):
    """Return UCT's move (a cell 0-8) for the player to move on `board`.

    Takes a board with a game in progress (9 cells; X or O to move, as
    game.to_move tells), a random.Random (every random choice draws from
    it, so a seed repeats the move) and the number of playouts (>= 1).
    Raises ValueError if the game on `board` is over.
    """
    if check_game_over(board) is not None:
        raise ValueError("the game is over: no move to choose")
    root = Node(None, opponent(to_move(board)), None, board)
    for _ in range(playouts):
        node, sim = root, list(board)
        # 1. Selection: while every move here has been tried, follow UCB1.
        while not node.untried and node.children:
            parent = node
            node = max(parent.children, key=lambda child: ucb1(child, parent.visits))
            sim[node.move] = node.player
        # 2. Expansion: one untried move, picked at random, becomes a node.
        if node.untried:
            move = node.untried.pop(int(rng.random() * len(node.untried)))
            player = opponent(node.player)
            sim[move] = player
            node.children.append(Node(move, player, node, sim, check_game_over(sim)))
            node = node.children[-1]
        # 3. Simulation: random moves to the end (none if it has ended).
        winner = node.winner or simulate(sim, opponent(node.player), rng)
        # 4. Backpropagation: each node on the path scores for its player.
        while node is not None:
            node.visits += 1
            node.score += 1.0 if winner == node.player else 0.5 if winner == TIE else 0.0
            node = node.parent
    # The most visited move: the "robust child" (Browne et al., 3.1).
    return max(root.children, key=lambda child: child.visits).move


def mcts_opponent(playouts=PLAYOUTS):
    """Return an opponent for the training loops: a function
    opponent(board, rng) -> mcts_move(board, rng, playouts)."""
    def opponent_move(board, rng):
        return mcts_move(board, rng, playouts)
    return opponent_move
