"""SPJA queries on DuckDB → join information (spec 2.0, 2.13, Ex. 9.1).

An aggregate query ``SELECT COUNT(*) | SUM(expr) | COUNT(DISTINCT expr) FROM ... WHERE ...``
plus its primary private relation(s) (alias and key column) is rewritten into the
*reporting query* ``SELECT expr AS psi, alias.key AS k0, ... [, proj AS p] FROM ... WHERE ...``
that returns one row per join result; :func:`extract` runs it and builds a
:class:`~dpworkbench.r2t.joininfo.JoinInfo`. Before that, :func:`complete` joins every atom along the
declared foreign keys to the primary private relations it depends on (seed 001 §3.2); a GROUP BY over a public
group domain yields one join information per group (issue 22).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass

import numpy as np

from .joininfo import JoinInfo, from_arrays

# ------------------------------------------------------------------ parsing (public: the query text only)
_AGG_ITEM = re.compile(r"^(?P<agg>count\s*\(\s*\*\s*\)|count\s*\(\s*distinct\s+(?P<dexpr>.+)\)|sum\s*\((?P<sexpr>.+)\))$",
                       re.IGNORECASE | re.DOTALL)
_SHAPE = ("query must be 'SELECT [group columns,] COUNT(*) | SUM(expr) | COUNT(DISTINCT expr) FROM a [x], b [y], ... "
          "[WHERE ...] [GROUP BY ...]'")


def _depth0(text: str) -> np.ndarray:
    """mask[i]: character i is outside quotes and parentheses."""
    mask = np.zeros(len(text) + 1, dtype=bool)
    depth, quote = 0, None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        else:
            mask[i] = depth == 0
    return mask


def _find_top(text: str, pattern: str) -> list[re.Match]:
    mask = _depth0(text)
    return [m for m in re.finditer(pattern, text, re.IGNORECASE) if mask[m.start()]]


def _split_top(text: str, pattern: str = r",") -> list[str]:
    out, last = [], 0
    for m in _find_top(text, pattern):
        out.append(text[last:m.start()])
        last = m.end()
    out.append(text[last:])
    return [p.strip() for p in out if p.strip()]


def _norm(expr: str) -> str:
    return " ".join(expr.lower().split())


@dataclass
class FromItem:
    alias: str
    relation: str | None  # None for a derived table
    subquery: str | None = None


@dataclass
class ParsedQuery:
    agg: str
    kind: str  # count | sum | count_distinct
    psi: str
    distinct: str | None
    select_groups: list[str]
    items: list[FromItem]
    where: str | None
    group_by: list[str]


def parse_query(sql: str, *, aggregate: bool = True) -> ParsedQuery:
    """Split an SPJA(-GROUP BY) query into its parts. Refusals depend on the query text alone."""
    text = sql.strip().rstrip(";").strip()
    if not re.match(r"^select\b", text, re.IGNORECASE):
        raise ValueError(_SHAPE)
    for bad, what in ((r"\bhaving\b", "HAVING"), (r"\border\s+by\b", "ORDER BY"), (r"\blimit\b", "LIMIT"),
                      (r"\bunion\b", "UNION"), (r"\bjoin\b", "JOIN ... ON (write FROM a x, b y WHERE ...)")):
        if _find_top(text, bad):
            raise ValueError(f"{what} is not supported in an R2T query; {_SHAPE}")
    f = _find_top(text, r"\bfrom\b")
    if not f:
        raise ValueError(_SHAPE)
    select, rest = text[6:f[0].start()], text[f[0].end():]
    g = _find_top(rest, r"\bgroup\s+by\b")
    group_by = _split_top(rest[g[0].end():]) if g else []
    rest = rest[:g[0].start()] if g else rest
    w = _find_top(rest, r"\bwhere\b")
    where = rest[w[0].end():].strip() if w else None
    from_text = rest[:w[0].start()] if w else rest
    items = [_from_item(t) for t in _split_top(from_text)]
    if not items:
        raise ValueError(_SHAPE)
    sel = _split_top(select)
    if not aggregate:
        return ParsedQuery("", "", "", None, sel, items, where, group_by)
    m = _AGG_ITEM.match(sel[-1].strip()) if sel else None
    if not m:
        raise ValueError(_SHAPE)
    groups = [re.sub(r"\s+as\s+\w+\s*$", "", s, flags=re.IGNORECASE).strip() for s in sel[:-1]]
    if groups and not group_by:
        raise ValueError(f"select columns {', '.join(groups)} need a GROUP BY; {_SHAPE}")
    missing = [s for s in groups if _norm(s) not in {_norm(x) for x in group_by}]
    if missing:
        raise ValueError(f"select column(s) {', '.join(missing)} are not in the GROUP BY")
    if m.group("sexpr") is not None:
        return ParsedQuery(sel[-1], "sum", f"({m.group('sexpr')})", None, groups, items, where, group_by)
    if m.group("dexpr") is not None:
        return ParsedQuery(sel[-1], "count_distinct", "1", m.group("dexpr"), groups, items, where, group_by)
    return ParsedQuery(sel[-1], "count", "1", None, groups, items, where, group_by)


def _from_item(text: str) -> FromItem:
    t = text.strip()
    if t.startswith("("):
        mask = _depth0(t)
        # the derived table ends at the first ")" after which the text is at depth 0 again
        close = next((i for i in range(1, len(t)) if t[i] == ")" and (i + 1 == len(t) or mask[i + 1] or t[i + 1] in " \t\n")
                      and t[:i + 1].count("(") == t[:i + 1].count(")")), None)
        if close is None:
            raise ValueError(f"FROM item {t!r}: unbalanced parentheses")
        sub, tail = t[1:close].strip(), t[close + 1:].split()
        if tail and tail[0].lower() == "as":
            tail = tail[1:]
        if len(tail) != 1 or not tail[0].isidentifier():
            raise ValueError("a derived table in FROM needs an alias: (SELECT ...) AS name")
        return FromItem(tail[0].lower(), None, sub)
    toks = t.split()
    if len(toks) == 3 and toks[1].lower() == "as":
        toks = [toks[0], toks[2]]
    if len(toks) not in (1, 2) or not all(re.match(r'^[\w."]+$', x) for x in toks):
        raise ValueError(f"FROM item {t!r}: write 'table' or 'table alias' (comma joins; conditions in WHERE)")
    rel = toks[0].strip('"').split(".")[-1].lower()
    return FromItem((toks[1] if len(toks) == 2 else rel).strip('"').lower(), rel)


# ------------------------------------------------------------------ the primary private relations
@dataclass(frozen=True)
class PrivateRelation:
    """A primary private relation. ``alias``/``key`` (the old ``ALIAS:KEY[:RELATION]`` form) name one atom of the query
    and its key column; ``relation`` alone (``--private RELATION``) takes the key from the declared schema. An
    empty ``relation`` defaults to the table the alias names, so every alias of one table is one relation."""

    alias: str = ""
    key: str = ""
    relation: str = ""

    @property
    def tag(self) -> str:
        return self.relation or self.alias


def normalize_private(private) -> list[PrivateRelation]:
    """The primary private relation(s) as a list of :class:`PrivateRelation` (from one, a dict alias → key, relation
    names, or (alias, key[, relation]) tuples).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §8 (multiple primary private relations); spec 2.12.
    """
    if isinstance(private, (PrivateRelation, str)):
        private = [private]
    if isinstance(private, dict):
        return [PrivateRelation(a, k) for a, k in private.items()]
    out = []
    for p in private:
        if isinstance(p, PrivateRelation):
            out.append(p)
        elif isinstance(p, str):
            out.append(PrivateRelation(relation=p.lower()) if ":" not in p else PrivateRelation(*p.split(":")))
        elif isinstance(p, (tuple, list)) and len(p) in (2, 3):
            out.append(PrivateRelation(*p))
        else:
            raise ValueError(f"private relation must be RELATION or (alias, key[, relation]), got {p!r}")
    if not out:
        raise ValueError("declare at least one primary private relation")
    return out


# ------------------------------------------------------------------ completion (seed 001 §3.2)
@dataclass
class Plan:
    """The completed query: every atom joined along declared foreign keys to the primary private relations it
    depends on; the key expression and relation tag of every private atom; GROUP BY expressions and whether the
    group key is a function of the individual (parallel composition). All public: built from query and schema."""

    parsed: ParsedQuery
    from_items: list[str]
    conjuncts: list[str]
    aliases: dict[str, str | None]
    keys: list[tuple[str, str]]  # (SQL expression, relation tag)
    added: list[str]
    parallel_groups: bool
    project: str | None = None

    @property
    def kind(self) -> str:
        return self.parsed.kind

    def _from_where(self, guard: bool = True) -> str:
        terms = [_guarded(c) for conj in self.conjuncts for c in _conjuncts(conj)] if guard else self.conjuncts
        where = " AND ".join(terms)
        return f"FROM {', '.join(self.from_items)}" + (f" WHERE {where}" if where else "")

    @property
    def completed_sql(self) -> str:
        """The completed query (a public input: printed with the release)."""
        sel = ", ".join([*self.parsed.select_groups, self.parsed.agg])
        gb = f" GROUP BY {', '.join(self.parsed.group_by)}" if self.parsed.group_by else ""
        return f"SELECT {sel} {self._from_where()}{gb}"

    def reporting_sql(self, groups: bool = True, guard: bool = True) -> str:
        """The reporting query. ``guard`` (DuckDB): TRY() around the weight, the projection and every
        non-equijoin WHERE term, so an arithmetic or conversion error in one row is NULL in that row (a weight of 0,
        by the rule in extract; a row that does not match), never a failed query — whether a release happens cannot
        depend on one row. Spark has no TRY(); its path runs with ANSI mode off instead (errors become NULL)."""
        keys = ", ".join(f"{e} AS __k{c}" for c, (e, _) in enumerate(self.keys))
        grp = "".join(f", CAST({g} AS VARCHAR) AS __g{i}" for i, g in enumerate(self.parsed.group_by)) if groups else ""
        t = (lambda e: f"TRY({e})") if guard else (lambda e: e)
        proj = f", {t(_proj_expr(self.project))} AS __p" if self.project else ""
        return _try_casts(f"SELECT {t(self.parsed.psi)} AS __psi, {keys}{proj}{grp} {self._from_where(guard)}")


_EQUI = re.compile(r'^\(?\s*(?:"?\w+"?\s*\.\s*)?"?\w+"?\s*=\s*(?:"?\w+"?\s*\.\s*)?"?\w+"?\s*\)?$')


def _conjuncts(where: str) -> list[str]:
    """Top-level AND terms of a condition (a BETWEEN's own AND stays inside its term)."""
    text = where.strip()
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1].strip()
    parts, out = _split_top(text, r"\bAND\b"), []
    for part in parts:
        if out and _find_top(out[-1], r"\bBETWEEN\b") and not _find_top(out[-1], r"\bBETWEEN\b.*\bAND\b"):
            out[-1] = f"{out[-1]} AND {part}"
        else:
            out.append(part)
    return out


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


def _guarded(term: str) -> str:
    """A join equality between two columns stays as written (the planner's hash joins need it; comparing two
    columns of their declared types raises nothing); any other term is TRY(...): a row whose term raises (an
    overflow, a failed conversion) does not match, instead of failing the whole query on one row's value."""
    return term if _EQUI.match(term) else f"TRY({term})"


def _proj_expr(project: str) -> str:
    parts = _split_top(project.strip()[1:-1] if project.strip().startswith("(") and _split_top(project.strip()[1:-1]) and
                       len(_split_top(project.strip()[1:-1])) > 1 else project)
    if len(parts) == 1:
        return f"({parts[0]})"
    # several columns, set semantics: one unambiguous text key per distinct tuple of values
    return "CAST(to_json(list_value(" + ", ".join(f"CAST({p} AS VARCHAR)" for p in parts) + ")) AS VARCHAR)"


def _try_casts(sql: str) -> str:
    """CAST → TRY_CAST (and ``x::T`` → TRY_CAST(x AS T)): a cell that does not convert is NULL in its own row, so
    the query cannot fail on (and its error cannot quote) one row's value."""
    sql = re.sub(r"(?<![\w])cast\s*\(", "TRY_CAST(", sql, flags=re.IGNORECASE)
    return re.sub(r"([\w.\"]+)::(\w+(?:\s*\(\s*\d+(?:\s*,\s*\d+)?\s*\))?)", r"TRY_CAST(\1 AS \2)", sql)


_COL = re.compile(r'^\s*(?:"?(\w+)"?\s*\.\s*)?"?(\w+)"?\s*$')


def _colref(expr: str, aliases: dict[str, str | None], catalog) -> tuple[str, str] | None:
    m = _COL.match(expr)
    if not m:
        return None
    a, c = (m.group(1) or "").lower(), m.group(2).lower()
    if a:
        return (a, c) if a in aliases else None
    if catalog is None:
        return None
    hits = [al for al, r in aliases.items() if r is not None and c in catalog.columns.get(r, {})]
    return (hits[0], c) if len(hits) == 1 else None


def _equalities(where: str | None, aliases, catalog) -> set[frozenset]:
    if not where or _find_top(where, r"\bor\b"):
        return set()  # an OR at the top level: no conjunct is certain to hold on every result
    eqs = set()
    for conj in _split_top(where, r"\band\b"):
        parts = _split_top(conj, r"(?<![<>!])=")
        if len(parts) == 2:
            a, b = _colref(parts[0], aliases, catalog), _colref(parts[1], aliases, catalog)
            if a and b:
                eqs.add(frozenset((a, b)))
    return eqs


def complete(sql: str, private, *, catalog=None, project: str | None = None, groups: dict | None = None) -> Plan:
    """Complete ``sql`` along the declared foreign keys (seed 001 §3.2) before any data is read.

    ``private``: relation names (``--private RELATION``; keys from ``catalog``) and/or old-form ``(alias, key[,
    relation])`` atoms. Every atom whose table references a primary private relation, directly or transitively, is
    joined to it: an existing atom equated with it on the foreign key in WHERE is reused, otherwise a new atom is
    added. Refuses (one line, public inputs only) a query that depends on no primary private relation and a
    foreign-key cycle.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §3.2 (query completion); seed 001 §3.2.
    """
    pq = parse_query(sql)
    privs = normalize_private(private)
    aliases: dict[str, str | None] = {}
    for it in pq.items:
        if it.alias in aliases:
            raise ValueError(f"alias {it.alias!r} is used twice in FROM")
        aliases[it.alias] = it.relation
    from_items = [f"({it.subquery}) AS {it.alias}" if it.relation is None else
                  (it.relation if it.alias == it.relation else f"{it.relation} {it.alias}") for it in pq.items]
    conjuncts = [f"({pq.where})"] if pq.where else []
    # primary private relations: relation → key columns; atom-level tags for an explicit RELATION ≠ table
    pk: dict[str, tuple[str, ...]] = {}
    atom_tags: dict[str, tuple[str, str]] = {}
    for p in privs:
        if not p.alias:
            rel = p.relation.lower()
            if catalog is None or not catalog.has(rel):
                raise ValueError(f"--private {p.relation}: no declared schema names this relation; give --db or "
                                 "--schema FILE.sql, or the old form ALIAS:KEY")
            key = catalog.primary.get(rel)
            if not key:
                raise ValueError(f"--private {p.relation}: the schema declares no PRIMARY KEY for it")
            pk[rel] = tuple(key)
            continue
        a = p.alias.lower()
        if a not in aliases:
            raise ValueError(f"the query does not reference the declared private relation {p.alias!r} "
                             f"(FROM has {sorted(aliases)})")
        table = aliases[a]
        rel = (p.relation or table or a).lower()
        if table is not None and rel != table:
            atom_tags[a] = (p.key, rel)  # a relation name of the user's own: this atom only
            continue
        if rel in pk and pk[rel] != (p.key.lower(),):
            raise ValueError(f"--private: relation {rel!r} is declared with two different keys")
        pk[rel] = (p.key.lower(),)
    derived_keys = _complete_derived(pq, from_items, pk, catalog, {rel for _, rel in atom_tags.values()})
    dep = catalog.depends(set(pk), roots=[r for r in aliases.values() if r]) if catalog is not None else {}
    eqs = _equalities(pq.where, aliases, catalog)
    added, edges = [], []
    made_atoms: set[str] = set()

    def ref(alias: str, c: str) -> str:
        # a completion atom exposes its columns as <alias>_<column>: unqualified names of the query stay unambiguous
        return f"{alias}.{alias}_{c}" if alias in made_atoms else f"{alias}.{c}"

    if catalog is not None:
        work = [a for a, r in aliases.items() if r is not None]
        made: dict[tuple[str, object], str] = {}
        n = 0
        while work:
            a = work.pop(0)
            for fk in catalog.fks_of(aliases[a]):
                if not dep.get(fk.ref_table):
                    continue
                target = next((b for b, r in aliases.items() if r == fk.ref_table and b != a and all(
                    frozenset(((a, c), (b, rc))) in eqs for c, rc in zip(fk.columns, fk.ref_columns))), None)
                if target is None:
                    target = made.get((a, fk))
                if target is None:
                    n += 1
                    target = f"__r{n}"
                    made[(a, fk)] = target
                    rel = fk.ref_table
                    need = list(dict.fromkeys([*fk.ref_columns, *pk.get(rel, ()),
                                               *(c for f2 in catalog.fks_of(rel) if dep.get(f2.ref_table) for c in f2.columns)]))
                    aliases[target] = rel
                    from_items.append(f"(SELECT {', '.join(f'{c} AS {target}_{c}' for c in need)} FROM {rel}) AS {target}")
                    conjuncts.extend(f"{ref(a, c)} = {target}.{target}_{rc}" for c, rc in zip(fk.columns, fk.ref_columns))
                    made_atoms.add(target)
                    added.append(f"{rel} {target} (via {fk.describe()})")
                    work.append(target)
                edges.append((a, target))
        # foreign-key joins to public relations written in the query: they make a group key a function of the
        # private tuple (e.g. the customer's nation), which decides parallel composition over groups
        for a, r in list(aliases.items()):
            for fk in catalog.fks_of(r) if r is not None else ():
                if dep.get(fk.ref_table):
                    continue
                edges.extend((a, b) for b, rb in aliases.items() if rb == fk.ref_table and b != a and all(
                    frozenset(((a, c), (b, rc))) in eqs for c, rc in zip(fk.columns, fk.ref_columns)))
    keys: list[tuple[str, str]] = list(derived_keys)
    for a, r in aliases.items():
        if a in atom_tags:
            keys.append((f"{a}.{atom_tags[a][0]}", atom_tags[a][1]))
        elif r is not None and r in pk:
            cols = pk[r]
            expr = ref(a, cols[0]) if len(cols) == 1 else \
                "CAST(to_json(list_value(" + ", ".join(f"CAST({ref(a, c)} AS VARCHAR)" for c in cols) + ")) AS VARCHAR)"
            keys.append((expr, r))
    if not keys:
        raise ValueError("the query depends on no primary private relation: none of its tables is, or references "
                         "through declared foreign keys, a --private relation")
    if pq.kind == "count_distinct":
        project = project or pq.distinct
    parallel = bool(pq.group_by) and _group_determined(pq.group_by, aliases, keys, edges, set(pk), catalog)
    return Plan(pq, from_items, conjuncts, aliases, keys, added, parallel, project)


_AGG_FN = re.compile(r"\b(count|sum|avg|min|max|list|string_agg|array_agg)\s*\(|\bdistinct\b|\bgroup\s+by\b", re.IGNORECASE)


def _complete_derived(pq: ParsedQuery, from_items: list[str], pk: dict, catalog, other_private=frozenset()) -> list[tuple[str, str]]:
    """Derived tables in FROM that contain a private relation are completed like the outer query, and expose the key
    of every private atom inside as a column ``__d<k>``; the outer query keys its results by them. A derived table
    that aggregates or de-duplicates private rows (one output row would mix individuals) is refused."""
    keys = []
    for i, it in enumerate(pq.items):
        if it.subquery is None:
            continue
        inner = parse_query(it.subquery, aggregate=False)
        mentions = any(x.relation in pk or x.relation in other_private for x in inner.items if x.relation) or any(
            x.relation and catalog is not None and catalog.has(x.relation) and
            catalog.depends(set(pk), roots=[x.relation]).get(x.relation) for x in inner.items)
        if not mentions and catalog is None:
            continue
        # the inner FROM keeps its aliases
        body = "SELECT COUNT(*) FROM " + ", ".join(
            (x.relation if x.alias == x.relation else f"{x.relation} {x.alias}") if x.relation else f"({x.subquery}) AS {x.alias}"
            for x in inner.items) + (f" WHERE {inner.where}" if inner.where else "")
        try:
            sub = complete(body, [PrivateRelation(relation=r) for r in pk] if catalog is not None else [], catalog=catalog)
        except ValueError as exc:
            if "depends on no primary private relation" in str(exc) or "declare at least one" in str(exc):
                if mentions:
                    raise ValueError(f"derived table {it.alias}: it reads a private relation; declare the keys "
                                     "(--db or --schema) so it can be completed") from None
                continue
            raise
        if inner.group_by or any(_AGG_FN.search(c) for c in inner.select_groups):
            raise ValueError(f"derived table {it.alias}: it aggregates or de-duplicates rows of a private relation, so "
                             "one of its rows can mix individuals; write the aggregate in the outer query")
        cols = ", ".join([*inner.select_groups, *(f"{e} AS __d{len(keys) + c}" for c, (e, _) in enumerate(sub.keys))])
        from_items[i] = f"(SELECT {cols} {sub._from_where()}) AS {it.alias}"
        keys.extend((f"{it.alias}.__d{len(keys) + c}", t) for c, (_, t) in enumerate(sub.keys))
    return keys


def _group_determined(group_by, aliases, keys, edges, private, catalog) -> bool:
    """Whether every individual's join results fall in one group: one primary private relation, and every group
    column is on a private atom or on an atom it reaches along foreign-key joins through public relations only,
    for every private atom of the query."""
    if len({t for _, t in keys}) != 1:
        return False
    priv_atoms = [a for a, r in aliases.items() if r in private]
    up: dict[str, set[str]] = {}
    for child, parent in edges:
        up.setdefault(child, set()).add(parent)
    for g in group_by:
        ref = _colref(g, aliases, catalog)
        if ref is None:
            return False
        for a in priv_atoms:
            seen, stack = {a}, [a]
            while stack:
                x = stack.pop()
                for y in up.get(x, ()):
                    if y not in seen and aliases.get(y) not in private:
                        seen.add(y)
                        stack.append(y)
            if ref[0] not in seen:
                return False
    return True


def reporting_query(sql: str, private, *, project: str | None = None, catalog=None) -> tuple[str, str]:
    """The reporting query of ``sql`` (one row per join result: ψ, the key of every private atom[, projection]);
    returns (sql, kind)."""
    plan = complete(sql, private, catalog=catalog, project=project)
    if plan.parsed.group_by:
        raise ValueError("GROUP BY: use complete() and extract() (one R2T release per group of a public domain)")
    return plan.reporting_sql(), plan.kind


# ------------------------------------------------------------------ group domains (public)
def group_domain(con, plan: Plan, catalog=None, groups: dict[str, list[str]] | None = None) -> list[tuple[str, ...]]:
    """The public domain of the GROUP BY key: per expression, ``--groups EXPR=v1|v2`` values, the values of an ENUM
    column, or the distinct values of a column of a public relation (one that is not private and references no
    private relation); the domain is their product. Refuses a group expression with none of these."""
    import itertools

    groups = {_norm(k): list(v) for k, v in (groups or {}).items()}
    dep = catalog.depends({t for _, t in plan.keys}, roots=[r for r in plan.aliases.values() if r]) \
        if catalog is not None else {}
    per = []
    for g in plan.parsed.group_by:
        if _norm(g) in groups:
            per.append([str(v) for v in groups[_norm(g)]])
            continue
        ref = _colref(g, plan.aliases, catalog)
        rel = plan.aliases.get(ref[0]) if ref else None
        if ref and catalog is not None and rel is not None:
            enum = catalog.enum_values(rel, ref[1])
            if enum is not None:
                per.append(list(enum))
                continue
            if not dep.get(rel, True):
                vals = con.execute(f"SELECT DISTINCT CAST({ref[1]} AS VARCHAR) FROM {rel} "
                                   f"WHERE {ref[1]} IS NOT NULL ORDER BY 1").fetchall()
                per.append([v[0] for v in vals])
                continue
        raise ValueError(f"GROUP BY {g}: the group domain must be public: a column of a public relation (declared "
                         "keys: --db or --schema), an ENUM column, or --groups 'EXPR=v1|v2|...'")
    return [tuple(t) for t in itertools.product(*per)]


# ------------------------------------------------------------------ extraction
@dataclass
class Extraction:
    info: JoinInfo
    reporting_sql: str
    seconds: float
    kind: str  # "count" | "sum" | "count_distinct"
    completed_sql: str = ""
    groups: list[tuple[str, ...]] | None = None
    group_infos: list[JoinInfo] | None = None
    parallel_groups: bool = False
    added: tuple[str, ...] = ()


_NUMERIC = ("INT", "DECIMAL", "DOUBLE", "FLOAT", "REAL", "NUMERIC", "HUGEINT")


def extract(con, sql: str, private, *, project: str | None = None, n_primary: dict | int | None = None,
            name: str = "", catalog=None, groups: dict | None = None, plan: Plan | None = None) -> Extraction:
    """Complete ``sql`` (:func:`complete`), run its reporting query on DuckDB connection ``con`` and build the join
    information (per group of the public domain when the query has GROUP BY).

    ``private``: relation names (keys from ``catalog``) or ``[(alias, key_column[, relation]), ...]`` /
    ``{alias: key_column}``; all atoms of one relation share tuple ids (self-joins), different relations are tagged
    apart (multiple primary private relations, spec 2.12). ``project``: SPJA projection, one expression or several
    separated by commas (set semantics); ``COUNT(DISTINCT e)`` implies ``project=e``.
    """
    import duckdb

    plan = plan or complete(sql, private, catalog=catalog, project=project)
    rq = plan.reporting_sql()
    try:  # binding needs the schema only: errors here are about the query and the declared types, never a row
        desc = con.execute(f"DESCRIBE {rq}").fetchall()
    except duckdb.Error as exc:
        raise ValueError(f"query failed in DuckDB: {str(exc).strip().splitlines()[0]}") from None
    type_name = str(desc[0][1]).upper()
    if not any(t in type_name for t in _NUMERIC):
        raise ValueError(f"SUM weights must be numeric; the SUM expression has type {type_name} "
                         "(declare the column's type with --schema, or write CAST(x AS DOUBLE))")
    domain = group_domain(con, plan, catalog, groups) if plan.parsed.group_by else None
    t0 = time.perf_counter()
    try:
        arr = con.execute(rq).fetchnumpy()
    except duckdb.Error:  # a run-time error depends on the rows: never quote it (it may hold a cell)
        raise ValueError("the query failed while reading the rows (a conversion or arithmetic error); declare the "
                         "column types (--schema) so that every cell is typed by the public rule") from None
    seconds = time.perf_counter() - t0
    psi = arr["__psi"]
    psi = np.ma.filled(np.ma.asarray(psi).astype(float), np.nan)  # NULL (incl. a TRY()'d error) → NaN → weight 0
    # A refusal that depends on one row's value would tell neighbours apart; the weights are mapped into the
    # domain R2T assumes instead (NULL → 0, negative → 0), a rule that is public and applied to every row.
    psi = np.where(np.isfinite(psi), np.maximum(psi, 0.0), 0.0) if psi.size else psi  # NULL/NaN/±inf → 0 too
    keys = [_col(arr[f"__k{c}"]) for c in range(len(plan.keys))]
    # a join result whose private key is NULL references no individual: it is dropped (a row-local public rule)
    ok = np.ones(psi.size, dtype=bool)
    for k in keys:
        ok &= ~_isnull(k)
    proj = _col(arr["__p"]) if "__p" in arr else None
    gcols = [_col(arr[f"__g{i}"]) for i in range(len(plan.parsed.group_by))] if domain is not None else []
    # DuckDB returns join results in an order that depends on its threads: sort them by their content so the join
    # information (and the fingerprint that seeds a research grid's cells) is the same on every run and for every
    # way of writing the query (hand-completed or completed here) — seeded figures are then reproducible.
    order = canonical_order([*keys, psi, *([proj] if proj is not None else []), *gcols])
    psi, keys, ok = psi[order], [k[order] for k in keys], ok[order]
    proj = None if proj is None else proj[order]
    gcols = [g[order] for g in gcols]
    n_tot = n_primary if isinstance(n_primary, int) else (int(sum(n_primary.values())) if isinstance(n_primary, dict) else None)
    tags = [t for _, t in plan.keys]

    def info_of(sel):
        return from_arrays(psi[sel], [k[sel] for k in keys], tags=tags, proj=None if proj is None else proj[sel],
                           n_primary=n_tot, name=name)

    if domain is None:
        return Extraction(info_of(ok), rq, seconds, plan.kind, plan.completed_sql, added=tuple(plan.added))
    gkey = np.array(["\x1f".join("" if v is None else str(v) for v in row) for row in zip(*gcols)], dtype=object) \
        if psi.size else np.zeros(0, dtype=object)
    gnull = np.zeros(psi.size, dtype=bool)
    for gc in gcols:
        gnull |= _isnull(gc)
    infos = [info_of(ok & ~gnull & (gkey == "\x1f".join(d))) for d in domain]  # out-of-domain and NULL groups: dropped
    return Extraction(info_of(ok), rq, seconds, plan.kind, plan.completed_sql, domain, infos, plan.parallel_groups,
                      tuple(plan.added))


def canonical_order(columns: list[np.ndarray]) -> np.ndarray:
    """A permutation sorting rows by the given columns (the first most significant); NULLs first."""
    import pandas as pd

    if not columns or columns[0].size == 0:
        return np.arange(columns[0].size if columns else 0)
    codes = [pd.factorize(c, sort=True, use_na_sentinel=True)[0] for c in columns]
    return np.lexsort(tuple(reversed(codes)))


def _col(a) -> np.ndarray:
    if np.ma.isMaskedArray(a):
        if a.dtype.kind in "fc":
            return np.asarray(a.filled(np.nan))
        # (filled(None) would use numpy's default fill value, a string, not None)
        out = np.asarray(a.data, dtype=object).copy()
        out[np.ma.getmaskarray(a)] = None
        return out
    return np.asarray(a)


def _isnull(a: np.ndarray) -> np.ndarray:
    import pandas as pd

    return np.asarray(pd.isnull(a), dtype=bool)



def timed_sql(con, sql: str) -> tuple[float, float]:
    """Plain SQL evaluation (the tables' "query running time"): returns (answer, seconds).

    The seconds are DuckDB running the query as written. The answer must not depend on thread scheduling: an
    integer or DECIMAL aggregate is exact in DuckDB (any order gives one value), but a floating-point SUM adds its
    threads' partial sums in the order they finish, so its last digits change from run to run (TPC-H Q7 and Q11,
    whose ``/ 1000`` makes the terms DOUBLE). Such a SUM's answer is :func:`_exact_float_sum` of the same terms."""
    t0 = time.perf_counter()
    res = con.execute(sql)
    v = res.fetchone()[0]
    seconds = time.perf_counter() - t0
    if _is_float(str(res.description[0][1])):  # the result's declared type (from the schema, not from a row)
        v = _exact_float_sum(con, sql)
    return float(v or 0.0), seconds


def _is_float(type_name: str) -> bool:
    return type_name.upper() in ("DOUBLE", "FLOAT", "REAL", "FLOAT4", "FLOAT8")


def _exact_float_sum(con, sql: str) -> float:
    """The ungrouped ``SUM(expr)`` of ``sql`` as the correctly rounded sum of its rows' terms (``math.fsum``):
    exact arithmetic on the very DOUBLE terms DuckDB adds, so the value is the same whatever order the parallel scan
    and joins return the rows in — the same number as DuckDB's own SUM up to its last bits, which were the
    scheduling's. It runs after the timed plain query: TPC-H Q7 at SF 1 takes 1.6 s per answer instead of 0.56 s
    (the join again, 6M terms fetched and added), a true answer per table cell, not a hot path."""
    q = parse_query(sql)
    if q.kind != "sum" or q.group_by:
        raise ValueError("a floating-point answer needs an ungrouped SUM(expr) query to be summed exactly")
    text = sql.strip().rstrip(";").strip()
    rest = text[_find_top(text, r"\bfrom\b")[0].start():]
    terms = con.execute(f"SELECT {q.psi} AS __t {rest}").fetchnumpy()["__t"]
    terms = np.ma.compressed(np.ma.asarray(terms)).astype(float)  # SQL's SUM skips NULL terms
    if not np.isfinite(terms).all():  # ±inf/NaN decide the sum in any order (fsum refuses them)
        return float(np.sum(terms))
    try:
        return math.fsum(terms.tolist())
    except OverflowError:  # the exact sum is beyond DOUBLE: add the terms in one fixed (sorted) order instead
        return float(np.sum(np.sort(terms)))


__all__ = ["Extraction", "Plan", "PrivateRelation", "canonical_order", "complete", "extract", "group_domain", "parse_query", "reporting_query",
           "timed_sql"]
