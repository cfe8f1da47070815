"""Monte Carlo Tree Search: a player that plans by sampling games.

The idea in one sentence: to choose a move, play many random games
(playouts) from the position, and spend them on the moves that have done
well so far, while still giving every move a chance; then play the move
tried most.

Each playout walks four steps (Browne et al., "A Survey of Monte Carlo
Tree Search Methods", IEEE TCIAIG, 2012, section 3.1): selection down the
tree, expansion by one new position, a random simulation to the end, and
backpropagation of the result up the path. Two selection rules:
  - UCB1 (mcts_move), which makes this UCT (Kocsis and Szepesvari, "Bandit
    based Monte-Carlo Planning", ECML 2006): no network, no learning; a
    training opponent for tic-tac-toe (learn.train_against_random's
    `opponent`) that, unlike the random player, punishes a net's mistakes.
  - PUCT (puct_visits): a prior, the net's policy, says which moves to try
    first (Rosin, "Multi-armed bandits with episode context", 2011; in the
    form of AlphaGo Zero, Silver et al., Nature 2017, and AlphaZero, Silver
    et al., Science 2018). With a value head, the net's value judges a new
    position in place of the random game, as AlphaZero's does.
    expert_iteration.py uses it to teach a connect-four net.
mcts_move takes the game's rules (game.py by default, or connect4.py);
puct_visits needs connect4.py's (it asks for winning_column). No C
counterpart.
"""

import math

from . import game as tic_tac_toe
from .game import TIE, opponent, to_move

PLAYOUTS = 200               # random games per move: more plays better, slower
EXPLORATION = math.sqrt(2)   # UCB1's c for results in [0, 1] (Kocsis and Szepesvari)
PUCT_EXPLORATION = 1.5       # PUCT's c: how much the prior weighs against results in [-1, 1]
NOISE_WEIGHT = 0.25          # the share of noise in the root's prior (AlphaZero's epsilon)


class Node:
    """A position in the search tree: reached by `move` (None at the root), played by `player`
    (X or O). `untried` holds the moves not yet expanded (UCT); `prior` is the probability
    the prior gave `move` (PUCT); `score` sums the results of the playouts through here for
    `player` (1 a win, 0.5 a tie, 0 a loss), `visits` counts them; `winner` is X, O or TIE
    if the result from here is known (the game is over; in PUCT, also when the player to
    move can win at once), else None."""

    __slots__ = ("move", "player", "parent", "children", "untried", "winner", "visits", "score",
                 "prior")

    def __init__(self, move, player, parent, untried, winner=None, prior=0.0):
        self.move, self.player, self.parent, self.winner = move, player, parent, winner
        self.children, self.visits, self.score, self.prior = [], 0, 0.0, prior
        self.untried = untried


def play(board, move, player, rules):
    """Play `move` for `player` on `board` (in place); return the winner if the game is now
    over (player, or TIE on a full board), else None."""
    if rules.play_move(board, move, player):
        return player
    return None if rules.legal_moves(board) else TIE


def ucb1(child, parent_visits):
    """Return UCB1 of a visited `child`: its mean result, plus a bonus that
    grows for moves tried rarely (Auer et al. 2002; Browne et al., 3.3)."""
    mean = child.score / child.visits
    return mean + EXPLORATION * math.sqrt(math.log(parent_visits) / child.visits)


def simulate(board, player, rng, rules=tic_tac_toe):
    """Play random moves on `board` (changed in place), `player` first,
    until the game ends; return the winner (X, O or TIE)."""
    while True:
        winner = play(board, rules.get_random_move(board, rng), player, rules)
        if winner:
            return winner
        player = opponent(player)


def result(winner, player):
    """Return the result of a game won by `winner` (X, O or TIE) for `player`: +1 a win, 0 a
    tie, -1 a loss."""
    return 1.0 if winner == player else 0.0 if winner == TIE else -1.0


def backpropagate(node, value):
    """Add `value`, the result for the player who moved into `node` (+1 a win, 0 a tie, -1 a
    loss, or a value between), to `node` and every node above it, each scoring for its own
    player: the sign flips at each step up, as the players alternate. Scores are kept in
    [0, 1] (1 a win, 0.5 a tie, 0 a loss), UCB1's scale."""
    while node is not None:
        node.visits += 1
        node.score += (1.0 + value) / 2
        node, value = node.parent, -value


def mcts_move(board, rng, playouts=PLAYOUTS, rules=tic_tac_toe):
    """Return UCT's move for the player to move on `board`.

    Takes a board with a game in progress (X or O to move, as game.to_move
    tells), a random.Random (every random choice draws from it, so a seed
    repeats the move), the number of playouts (>= 1) and the rules.
    Raises ValueError if the game on `board` is over.
    """
    if rules.check_game_over(board) is not None:
        raise ValueError("the game is over: no move to choose")
    root = Node(None, opponent(to_move(board)), None, rules.legal_moves(board))
    for _ in range(playouts):
        node, sim = root, list(board)
        # 1. Selection: while every move here has been tried, follow UCB1.
        while not node.untried and node.children:
            parent = node
            node = max(parent.children, key=lambda child: ucb1(child, parent.visits))
            rules.play_move(sim, node.move, node.player)
        # 2. Expansion: one untried move, picked at random, becomes a node.
        if node.untried:
            move = node.untried.pop(int(rng.random() * len(node.untried)))
            player = opponent(node.player)
            winner = play(sim, move, player, rules)
            # A finished game has no moves to try.
            untried = [] if winner else rules.legal_moves(sim)
            node.children.append(Node(move, player, node, untried, winner))
            node = node.children[-1]
        # 3. Simulation: random moves to the end (none if it has ended).
        winner = node.winner or simulate(sim, opponent(node.player), rng, rules)
        # 4. Backpropagation: each node on the path scores for its player.
        backpropagate(node, result(winner, node.player))
    # The most visited move: the "robust child" (Browne et al., 3.1).
    return max(root.children, key=lambda child: child.visits).move


def mcts_opponent(playouts=PLAYOUTS):
    """Return an opponent for the training loops: a function
    opponent(board, rng) -> mcts_move(board, rng, playouts)."""
    def opponent_move(board, rng):
        return mcts_move(board, rng, playouts)
    return opponent_move


def puct(child, parent_visits):
    """Return PUCT's score of `child`: its mean result Q in [-1, 1] (0, a tie, if it has none),
    plus the prior's share of an exploration bonus that shrinks as the child is visited:
    Q + c P sqrt(N) / (1 + n) (Silver et al. 2017 and 2018)."""
    mean = 2 * child.score / child.visits - 1 if child.visits else 0.0
    return mean + PUCT_EXPLORATION * child.prior * math.sqrt(parent_visits) / (1 + child.visits)


def puct_visits(board, rng, evaluate, simulations, rules, noise=None):
    """Search from `board` by PUCT; return (visits, value): the visits of each move, a list with
    one count per move of `rules` (9 cells or 7 columns; 0 for an illegal move), and the
    search's value of `board` for the player to move, in [-1, 1]: the mean of the results
    backed up to the root (its own first judgement and every simulation's).

    Takes a board with a game in progress, a random.Random, evaluate(board) -> (probs, value):
    the prior, one probability per move (the net's policy over the legal moves), and the value
    of the position for the player to move in [-1, 1], or None to judge it by one random game
    to the end; the number of simulations (>= 1); the rules (a module with winning_column:
    connect4.py); and noise, one weight per move (0 for an illegal one, summing to 1), mixed
    into the root's prior with weight NOISE_WEIGHT (AlphaZero's Dirichlet noise, for
    self-play), or None.

    Each simulation walks down the tree by PUCT to a position not yet expanded and expands it:
    every legal move becomes a child with the prior's probability (a first walk expands the
    root, so the visits sum to `simulations`). It judges the position:
    a finished game by its result; below the root, a position whose player to move can win at
    once as that win; else by evaluate's value (or a random game). Then it backpropagates.
    """
    root = Node(None, opponent(to_move(board)), None, None)
    for _ in range(simulations + 1):
        node, sim = root, list(board)
        # 1. Selection: down the expanded positions, by PUCT.
        while node.children:
            parent = node
            node = max(parent.children, key=lambda child: puct(child, parent.visits))
            winner = play(sim, node.move, node.player, rules)
            if node.visits == 0:   # the first visit: is the game over here?
                node.winner = winner
        # 2. Expansion and evaluation. A player who can win at once will: the result is known.
        player = opponent(node.player)   # to move at `node`
        if node.winner is None and node is not root \
                and rules.winning_column(sim, player) is not None:
            node.winner = player
        if node.winner is not None:
            value = result(node.winner, node.player)
        else:
            probs, value = evaluate(sim)
            if node is root and noise is not None:   # AlphaZero's exploration in self-play
                probs = [(1 - NOISE_WEIGHT) * p + NOISE_WEIGHT * n for p, n in zip(probs, noise)]
            node.children = [Node(move, player, node, None, None, probs[move])
                             for move in rules.legal_moves(sim)]
            # The value is the mover's here; `node` scores for the player who moved into it.
            value = -value if value is not None else \
                result(simulate(sim, player, rng, rules), node.player)
        # 3. Backpropagation.
        backpropagate(node, value)
    visits = [0] * rules.OUTPUT_SIZE
    for child in root.children:
        visits[child.move] = child.visits
    return visits, 1.0 - 2 * root.score / root.visits   # root scores for the other player
