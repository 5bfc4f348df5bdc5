#!/usr/bin/env python3
"""
The five generators of docs/games/*.md ("Generator, byte for byte") and their steps, written in
Python from those recipes and docs/games/README.md alone, without the project's code, and checked
against every test vector of docs/games/vectors/: each vector's unit seed, tier and pick must
give its scenario exactly, and its actions every step's events, in order.

    python3 docs/games/recipes.py    # per game, the vectors re-generated; exit 1 on a mismatch

Python 3.8 or later, standard library only. It reads as a third party would: where a recipe
leaves something out, this file cannot follow it and a vector fails.
"""
import json
import os
import struct
import sys
from itertools import combinations
from math import factorial as F

VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vectors')

# ------------------------------------------------------------------ README: the words shared

def _rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = _rotl(s[b] ^ s[c], 7)


def chacha20_block(key, counter, nonce):
    """RFC 8439 section 2.3: the 16 words of one block."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += list(struct.unpack('<8I', key)) + [counter] + list(struct.unpack('<3I', nonce))
    w = state[:]
    for _ in range(10):
        _quarter(w, 0, 4, 8, 12); _quarter(w, 1, 5, 9, 13); _quarter(w, 2, 6, 10, 14); _quarter(w, 3, 7, 11, 15)
        _quarter(w, 0, 5, 10, 15); _quarter(w, 1, 6, 11, 12); _quarter(w, 2, 7, 8, 13); _quarter(w, 3, 4, 9, 14)
    return [(w[i] + state[i]) & 0xFFFFFFFF for i in range(16)]


class Rng:
    """Rng(unitSeed, label): words, below, pick, shuffle, weighted."""

    def __init__(self, seed_hex, label):
        self.key = bytes.fromhex(seed_hex)
        self.nonce = label.encode('ascii').ljust(12, b'\0')
        self.counter = 0
        self.words = []

    def word(self):
        if not self.words:
            self.words = chacha20_block(self.key, self.counter, self.nonce)
            self.counter += 1
        return self.words.pop(0)

    def below(self, m):
        limit = (2 ** 32 // m) * m
        while True:
            x = self.word()
            if x < limit:
                return x % m

    def pick(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def weighted(self, weights):
        r = self.below(sum(weights))
        bound = 0
        for i, w in enumerate(weights):
            bound += w
            if r < bound:
                return i
        raise AssertionError('unreachable')

# ------------------------------------------------------------------ Les mystères de la lampe

LAMP_VALUES = {'colour': ['red', 'blue', 'green', 'gold'], 'symbol': ['star', 'moon', 'sun', 'key']}
LAMP_TIERS = [(1000000, 1), (50000, 1), (5000, 60), (700, 13800), (200, 32200), (100, 100000), (50, 81000)]


def lamp(seed, stake, prize, pick):
    kind, choice = pick['kind'], pick['choice']
    if prize > 0:
        return {'kind': kind, 'pick': choice, 'potentialGain': prize, 'result': choice}
    rng = Rng(seed, 'lampe-gen')
    tier = rng.weighted([count for _, count in LAMP_TIERS])
    values = LAMP_VALUES[kind]
    o = rng.below(3)
    if o >= values.index(choice):
        o += 1
    return {'kind': kind, 'pick': choice, 'potentialGain': LAMP_TIERS[tier][0], 'result': values[o]}

# ------------------------------------------------------------------ Le Noël de la chance

NOEL_G = ['star', 'bell', 'gift']
NOEL_D = ['holly', 'candle', 'snowflake', 'bauble', 'sleigh']
NOEL_K = {50: 4, 100: 5, 250: 6, 1000: 7, 5000: 8, 25000: 9, 250000: 10}


def noel_server_pick(seed):
    return Rng(seed, 'noel-pick').pick(NOEL_G)


def noel(seed, stake, prize, symbol):
    rng = Rng(seed, 'noel-scen')
    if prize == 0:
        entries = [(s, a, b) for s in range(4) for a in range(4) for b in range(4)]
        exact = [F(18) // (F(s) * F(a) * F(b) * F(18 - s - a - b)) * 5 ** (18 - s - a - b) for s, a, b in entries]
    else:
        k = NOEL_K[prize // (stake // 50)]
        entries = [(k, a, b) for a in range(4) for b in range(4)]
        exact = [F(18 - k) // (F(a) * F(b) * F(18 - k - a - b)) * 5 ** (18 - k - a - b) for _, a, b in entries]
    total = sum(exact)
    s, a, b = entries[rng.weighted([max(1, w * 2 ** 31 // total) for w in exact])]
    other_a, other_b = [g for g in NOEL_G if g != symbol]
    cells = [symbol] * s + [other_a] * a + [other_b] * b
    while len(cells) < 18:
        cells.append(rng.pick(NOEL_D))
    rng.shuffle(cells)
    return {'stake': stake, 'symbol': symbol, 'cells': cells}

# ------------------------------------------------------------------ 500 000 CARATS

def _splits(table):
    return {prize: [[[int(x) for x in split.split('+')] for split in group.split('|')] for group in groups.split(' ')]
            for prize, groups in table.items()}


CARATS_SPLITS = _splits({
    50000000: '50000000', 1000000: '1000000', 100000: '100000',
    10000: '10000 5000+5000 5000+1500+1500+1500+500|5000+1500+1500+1000+1000 '
           '5000+1500+1500+1000+500+500|5000+1500+1000+1000+1000+500|5000+1000+1000+1000+1000+1000',
    5000: '5000 1500+1500+1500+500|1500+1500+1000+1000 1500+1500+1000+500+500|1500+1000+1000+1000+500|1000+1000+1000+1000+1000 '
          '1500+1500+500+500+500+500|1500+1000+1000+500+500+500|1000+1000+1000+1000+500+500',
    1500: '1500 1000+500 500+500+500', 1000: '1000 500+500', 500: '500',
})
CARATS_AMOUNTS = [(24, 500), (46, 1000), (64, 1500), (76, 5000), (86, 10000), (93, 100000), (98, 1000000), (100, 50000000)]


def _draw(items, i, rng):
    j = i + rng.below(len(items) - i)
    items[i], items[j] = items[j], items[i]
    return items[i]


def carats(seed, stake, prize, _pick):
    rng = Rng(seed, 'carats')
    pool = [n for n in range(1, 50) if n not in (5, 10, 15)]
    winning = [_draw(pool, i, rng) for i in range(6)]
    matched = {}
    if prize:
        split = rng.pick(rng.pick(CARATS_SPLITS[prize]))
        winners, slots = pool[:6], list(range(24))
        for m, amount in enumerate(split):
            number = _draw(winners, m, rng)
            matched[_draw(slots, m, rng)] = (number, amount)
    numbers, amounts, nxt = [], [], 6
    for i in range(24):
        if i in matched:
            numbers.append(matched[i][0]); amounts.append(matched[i][1])
            continue
        numbers.append(_draw(pool, nxt, rng)); nxt += 1
        r = rng.below(100)
        amounts.append(next(amount for bound, amount in CARATS_AMOUNTS if r < bound))
    return {'winning': winning, 'numbers': numbers, 'amounts': amounts}

# ------------------------------------------------------------------ RAIN DIAMONDS

RAIN_COLOURS = ['blue', 'green', 'red', 'violet', 'yellow', 'orange', 'white']
RAIN_PRIZES = [500000, 50000, 2000, 1000, 500, 100, 50]


class _Bytes:
    def __init__(self, seed):
        self.rng, self.bytes = Rng(seed, 'rain-diamond'), []

    def byte(self):
        if not self.bytes:
            w = self.rng.word()
            self.bytes = [(w >> (8 * i)) & 255 for i in range(4)]
        return self.bytes.pop(0)

    def _accepted(self, n):
        while True:
            b = self.byte()
            if b < 256 - 256 % n:
                return b

    def below(self, n):
        return self._accepted(n) % n

    def one_in(self, n):
        return self._accepted(n) < 256 // n


def rain(seed, stake, prize, _pick):
    d = _Bytes(seed)
    win = RAIN_PRIZES.index(prize) if prize else None
    for _ in range(10000):
        colour, barred, grid, queue, total = {}, {}, list(range(20)), [[] for _ in range(5)], [0] * 7
        fresh = [20]

        def collapse(c, taken, eager):
            for col in range(5):
                stay = []
                for g in grid[col * 4:col * 4 + 4]:
                    if g in taken:
                        colour[g] = c
                    else:
                        stay.append(g)
                        barred[g] = barred.get(g, set()) | {c}
                entered = []
                for _hole in range(4 - len(stay)):  # the lowest hole first
                    g = fresh[0]; fresh[0] += 1
                    barred[g] = set()
                    if eager:
                        colour[g] = d.below(7)
                    queue[col].append(g)
                    entered.append(g)
                grid[col * 4:col * 4 + 4] = entered[::-1] + stay

        failed = False
        if win is None:
            for g in range(20):
                colour[g] = d.below(7)
            boxes = [d.below(7) for _ in range(5)]
            for c in boxes:
                taken = {g for g in grid if colour[g] == c}
                collapse(c, taken, True)
                total[c] += len(taken)
                if total[c] >= 6:
                    failed = True
                    break
        else:
            m = [1, 1, 1, 2, 2, 2, 2, 3, 3, 4][d.below(10)]
            boxes, is_w = [], []
            for k in range(5):
                if d.below(5 - k) < m:
                    boxes.append(win); is_w.append(True); m -= 1
                else:
                    o = d.below(6)
                    boxes.append(o if o < win else o + 1); is_w.append(False)
            for k, c in enumerate(boxes):
                taken = set()
                if is_w[k]:
                    later = sum(is_w[k + 1:])
                    e_list = [g for g in grid if win not in barred.get(g, set())]
                    e, share = len(e_list), 6 - total[win]
                    if later > 0:
                        most = min(e, share - later)
                        if most < 1:
                            failed = True
                            break
                        share = 1 + d.below(most)
                    if e < share:
                        failed = True
                        break
                    for i in range(share):
                        j = i + d.below(e - i)
                        e_list[i], e_list[j] = e_list[j], e_list[i]
                        taken.add(e_list[i])
                else:
                    for g in list(grid):
                        b = barred.get(g, set())
                        if c not in b and d.one_in(7 - len(b)):
                            taken.add(g)
                total[c] += len(taken)
                collapse(c, taken, False)
                if not is_w[k] and total[c] >= 6:
                    failed = True
                    break
            if not failed:
                for g in list(grid):
                    allowed = [i for i in range(7) if i not in barred.get(g, set())]
                    colour[g] = allowed[d.below(len(allowed))]
        if not failed:
            return {'grid': [[RAIN_COLOURS[colour[col * 4 + row]] for row in range(4)] for col in range(5)],
                    'queues': [[RAIN_COLOURS[colour[g]] for g in queue[col]] for col in range(5)],
                    'boxes': [RAIN_COLOURS[c] for c in boxes]}
    raise AssertionError('no scenario in 10,000 attempts')

# ------------------------------------------------------------------ Mine d'or

MINE_NAMES = ['pepite', 'diamant', 'billet', 'bougie', 'cactus', 'pioche']
MINE_GAINS = [375000, 10000, 2000, 500, 200, 50]
MINE_LINES = [{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}]
MINE_TRIPLES = [(t, set(t) in MINE_LINES) for t in combinations(range(9), 3)]


def _placements(a, u):
    out = []

    def walk(chosen, used):
        if len(chosen) == a + u:
            out.append(chosen)
            return
        want_line = len(chosen) < a
        for t, line in MINE_TRIPLES:
            if line == want_line and not used & set(t):
                walk(chosen + [t], used | set(t))
    walk([], set())
    return out


MINE_PLACEMENTS = {(a, u): _placements(a, u) for a in range(4) for u in range(4) if a + u <= 3}


def _fillers(n, m):
    out = []

    def walk(v, left):
        if len(v) == m:
            if left == 0:
                w = F(n)
                for c in v:
                    w //= F(c)
                out.append((v, w))
            return
        for c in range(min(2, left) + 1):
            walk(v + [c], left - c)
    walk([], n)
    return out


def _extra_plans(k, full):
    out = []

    def walk(e, seen):
        if 0 < len(e) <= k and seen < len(e):
            return
        if len(e) == k + 1:
            if seen == k:
                out.append(e)
            return
        for x in range((0 if len(e) in full else min(3, k - seen)) + 1):
            walk(e + [x], seen + x)
    walk([], 0)
    return out


def _grid_options():
    options = []
    for s in range(1, 64):
        symbols = [i for i in range(6) if s >> i & 1]
        if len(symbols) > 3:
            continue
        for lines in range(2 ** len(symbols)):
            plan = [(symbol, bool(lines >> t & 1)) for t, symbol in enumerate(symbols)]
            aligned = sum(1 for _, al in plan if al)
            if MINE_PLACEMENTS[(aligned, len(plan) - aligned)]:
                options.append((plan, sum(MINE_GAINS[sym] * (2 if al else 1) for sym, al in plan)))
    return {n: sorted([o for o in options if len(o[0]) == n], key=lambda o: o[1]) for n in (1, 2, 3)}


MINE_OPTIONS = _grid_options()
_ways_cache = {}


def _ways(prize, k):
    if (prize, k) not in _ways_cache:
        groups = {1: [], 2: [], 3: []}

        def walk(grids, left, combos):
            if len(grids) == k + 1:
                full = {i for i, g in enumerate(grids) if len(g) == 3}
                if left == 0 and combos > 0 and _extra_plans(k, full):
                    groups[combos].append(grids)
                return
            walk(grids + [[]], left, combos)
            for size in (1, 2, 3):
                if combos + size <= 3:
                    for plan, gain in MINE_OPTIONS[size]:
                        if gain <= left:
                            walk(grids + [plan], left - gain, combos + size)
        walk([], prize, 0)
        _ways_cache[(prize, k)] = groups
    return _ways_cache[(prize, k)]


def mine(seed, stake, prize, _pick):
    rng = Rng(seed, 'mine-d-or')
    k = rng.weighted([24, 8, 4, 2, 1])
    way = [[] for _ in range(k + 1)]
    if prize:
        groups = _ways(prize // (stake // 50), k)
        n = 1 + rng.weighted([w if groups[i + 1] else 0 for i, w in enumerate([6, 3, 1])])
        way = rng.pick(groups[n])
    plans = _extra_plans(k, {i for i, plan in enumerate(way) if len(plan) == 3})
    extras = plans[0] if len(plans) == 1 else rng.pick(plans)
    grids = []
    for plan, x in zip(way, extras):
        cells = [None] * 9
        if plan:
            lines = [p for p in plan if p[1]]
            others = [p for p in plan if not p[1]]
            for t, triple in enumerate(rng.pick(MINE_PLACEMENTS[(len(lines), len(others))])):
                symbol = (lines[t] if t < len(lines) else others[t - len(lines)])[0]
                for cell in triple:
                    cells[cell] = MINE_NAMES[symbol]
        free = [c for c in range(9) if cells[c] is None]
        for i in range(x):
            j = i + rng.below(len(free) - i)
            free[i], free[j] = free[j], free[i]
            cells[free[i]] = 'extra'
        r = len(free) - x
        if r > 0:
            used = {p[0] for p in plan}
            symbols = [i for i in range(6) if i not in used]
            fillers = _fillers(r, len(symbols))
            vector = fillers[rng.weighted([w for _, w in fillers])][0]
            q = []
            for i, c in enumerate(vector):
                q += [symbols[i]] * c
            rng.shuffle(q)
            for i in range(r):
                cells[free[x + i]] = MINE_NAMES[q[i]]
        grids.append(cells)
    return {'stake': stake, 'grids': grids}

# ------------------------------------------------------------------ the steps (each page's "Steps")

def _finished(prize):
    return {'type': 'finished', 'prize': prize}


class LampReveal:
    def __init__(self, scenario, prize, pick):
        self.s, self.prize, self.pick, self.done = scenario, prize, pick, False

    def start(self):
        return [{'type': 'potential_gain_shown', 'pick': self.pick, 'amount': self.s['potentialGain']}]

    def act(self, action):
        progress = action.get('progress', 100) if action['type'] == 'rub' else 100
        events = [{'type': 'rub_progress', 'progress': progress}]
        if progress == 100:
            self.done = True
            events += [{'type': 'lamp_opened', 'result': self.s['result']}, _finished(self.prize)]
        return events


class NoelReveal:
    def __init__(self, scenario, prize, _pick):
        self.s, self.prize, self.done = scenario, prize, False

    def start(self):
        return [{'type': 'symbols_offered', 'symbols': list(NOEL_G)}]

    def act(self, _action):
        self.done = True
        cells = [{'type': 'cell_revealed', 'row': i // 6, 'col': i % 6, 'symbol': c} for i, c in enumerate(self.s['cells'])]
        return [{'type': 'symbol_picked', 'symbol': self.s['symbol']}] + cells + [_finished(self.prize)]


class CaratsReveal:
    def __init__(self, scenario, prize, _pick):
        self.s, self.prize, self.winning_shown, self.shown, self.done = scenario, prize, False, set(), False

    def start(self):
        return []

    def _numbers(self, indexes):
        events = []
        for i in indexes:
            self.shown.add(i)
            n = self.s['numbers'][i]
            events.append({'type': 'number_revealed', 'index': i, 'number': n, 'amount': self.s['amounts'][i],
                           'matched': n in self.s['winning']})
        if len(self.shown) == 24:
            self.done = True
            events.append(_finished(self.prize))
        return events

    def act(self, action):
        events = []
        if action['type'] in ('reveal_winning', 'auto', 'server_complete') and not self.winning_shown:
            self.winning_shown = True
            events.append({'type': 'winning_numbers_revealed', 'numbers': list(self.s['winning'])})
        if action['type'] == 'reveal':
            events += self._numbers([action['index']])
        elif action['type'] == 'reveal_many':
            events += self._numbers(action['indexes'])
        elif action['type'] in ('auto', 'server_complete'):
            events += self._numbers([i for i in range(24) if i not in self.shown])
        return events


class RainReveal:
    def __init__(self, scenario, prize, _pick):
        self.s, self.prize, self.done = scenario, prize, False
        self.grid = [list(col) for col in scenario['grid']]
        self.used, self.opened, self.total = [0] * 5, [], {}

    def start(self):
        return [{'type': 'grid_shown', 'grid': self.s['grid']}]

    def _open(self, box):
        n = len(self.opened) + 1
        c = self.s['boxes'][n - 1]
        self.opened.append(box)
        cells = [{'col': col, 'row': row} for col in range(5) for row in range(4) if self.grid[col][row] == c]
        self.total[c] = self.total.get(c, 0) + len(cells)
        moves, entered = [], []
        for col in range(5):
            stay = [(row, g) for row, g in enumerate(self.grid[col]) if g != c]
            new = [None] * 4
            to = 3
            for row, g in reversed(stay):  # the lowest moving gem first
                if row != to:
                    moves.append({'col': col, 'fromRow': row, 'toRow': to})
                new[to] = g
                to -= 1
            while to >= 0:  # the lowest hole first, in the queue's order
                g = self.s['queues'][col][self.used[col]]
                self.used[col] += 1
                new[to] = g
                entered.append({'col': col, 'row': to, 'colour': g})
                to -= 1
            self.grid[col] = new
        events = [{'type': 'box_opened', 'box': box, 'colour': c, 'order': n},
                  {'type': 'gems_collected', 'colour': c, 'cells': cells, 'total': self.total[c]}]
        if moves:
            events.append({'type': 'gems_fell', 'moves': moves})
        if entered:
            events.append({'type': 'gems_entered', 'cells': entered})
        if n == 5:
            self.done = True
            events.append(_finished(self.prize))
        return events

    def act(self, action):
        if action['type'] == 'open':
            return self._open(action['box'])
        events = []
        for box in range(5):
            if box not in self.opened and not self.done:
                events += self._open(box)
        return events


def _combinations(symbols, stake):
    found = []
    for i, name in enumerate(MINE_NAMES):
        cells = [c for c in range(9) if symbols[c] == name]
        if len(cells) == 3:
            aligned = set(cells) in MINE_LINES
            found.append({'symbol': name, 'cells': cells, 'aligned': aligned,
                          'gain': MINE_GAINS[i] * (stake // 50) * (2 if aligned else 1)})
    return found


class MineReveal:
    def __init__(self, scenario, prize, _pick):
        self.s, self.prize, self.shown, self.done = scenario, prize, 0, False

    def _show(self, until):
        events = []
        grids = self.s['grids']
        for g in range(self.shown, until):
            combos = _combinations(grids[g], self.s['stake'])
            earned = sum(grid.count('extra') for grid in grids[:g + 1])
            events.append({'type': 'grid_revealed', 'stage': g, 'symbols': grids[g], 'combinations': combos,
                           'gain': sum(c['gain'] for c in combos), 'extrasEarned': grids[g].count('extra'),
                           'extrasPending': earned - g})
        self.shown = until
        if until == len(grids):
            self.done = True
            events.append(_finished(self.prize))
        return events

    def start(self):
        return self._show(1)

    def act(self, action):
        return self._show(self.shown + 1 if action['type'] == 'extra' else len(self.s['grids']))


REVEALS = {'rain-diamonds': RainReveal, '500000-carats': CaratsReveal, 'noel-de-la-chance': NoelReveal,
           'mine-d-or': MineReveal, 'mysteres-de-la-lampe': LampReveal}


def steps_of(game, vector, scenario):
    """Each step's events from the scenario and the vector's actions."""
    reveal = REVEALS[game](scenario, vector['prize'], vector['picks'])
    steps = [reveal.start()]
    for logged in vector['actions']:
        steps.append(reveal.act(logged['action']))
    return steps if reveal.done else None


# ------------------------------------------------------------------ checking the vectors

GENERATORS = {'rain-diamonds': rain, '500000-carats': carats, 'noel-de-la-chance': noel, 'mine-d-or': mine,
              'mysteres-de-la-lampe': lamp}


def choice_of(game, vector):
    if game == 'mysteres-de-la-lampe':
        return vector['picks']
    if game == 'noel-de-la-chance':
        # The player's pick is their action; the server's, a draw from the unit seed.
        picked = [s['action'] for s in vector['steps'] if s['action'] and s['action'].get('type') == 'pick']
        return picked[0]['symbol'] if picked else noel_server_pick(vector['unitSeed'])
    return None


def main():
    failures = 0
    for game, generate in GENERATORS.items():
        with open(os.path.join(VECTORS, game + '.json'), encoding='utf-8') as f:
            vectors = json.load(f)['vectors']
        wrong = []
        for v in vectors:
            scenario = generate(v['unitSeed'], v['stake'], v['prize'], choice_of(game, v))
            if scenario != v['scenario'] or steps_of(game, v, scenario) != [step['events'] for step in v['steps']]:
                wrong.append(v['case'])
        for case in wrong:
            print('MISMATCH %s: %s' % (game, case))
        print('%s: %d of %d vectors re-generated exactly' % (game, len(vectors) - len(wrong), len(vectors)))
        failures += len(wrong)
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
