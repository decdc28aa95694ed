/* SPDX-License-Identifier: MIT */
/*
 * The source map of a built board: from `dtc -O dts -T -T`, which writes
 * after every node and property the places in the sources that made it:
 *
 *   dev@1 { / * base.dtsi:8:8-12:4, board.dts:8:8-10:4 * /
 *           power-domains = <0x01 0x00>; / * base.dtsi:10:3-10:27 * /
 *
 * A node lists every fragment that wrote into it (its definition, then
 * each `&label { ... }` or repeated path, in the order dtc merged them); a
 * property only the place whose value won. Where it was first set, when a
 * later fragment overrode it, is found by reading the earlier fragments'
 * source text (docs/decisions/lint-on-sources.md).
 */
#include "source.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct span {
	unsigned file; /* index into map->files */
	unsigned l1, c1, l2, c2;
};

struct prop {
	const char *name;
	struct span at;
};

struct node {
	size_t path;  /* offset into map->paths */
	size_t frag0; /* map->frags[frag0 .. frag0 + n_frags - 1] */
	unsigned n_frags;
	size_t prop0; /* map->props[prop0 .. prop0 + n_props - 1] */
	unsigned n_props;
};

struct file {
	char *raw;  /* as dtc names it: readable from here */
	char *name; /* as printed */
	char *data; /* the text, read on first need; NULL before or if unreadable */
	size_t len;
	int tried;
};

struct cli_srcmap {
	char *text;
	struct node *nodes;
	size_t n_nodes, cap_nodes;
	struct span *frags;
	size_t n_frags, cap_frags;
	struct prop *props;
	size_t n_props, cap_props;
	char *paths;
	size_t len_paths, cap_paths;
	struct file *files;
	size_t n_files, cap_files;
	size_t *slots; /* node index + 1, open addressing by path hash */
	size_t mask;
	char *(*rename)(void *user, const char *file);
	void *rename_user;
};

/* Grow *@v (of @elem bytes each) to hold one more than *@n. */
static int grow(void **v, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 64;
	if (ncap > SIZE_MAX / elem)
		return -ENOMEM;
	void *bigger = realloc(*v, ncap * elem);
	if (!bigger)
		return -ENOMEM;
	*v = bigger;
	*cap = ncap;
	return 0;
}

static size_t hash_path(const char *s, size_t len)
{
	size_t h = 14695981039346656037u & SIZE_MAX;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * (1099511628211u & SIZE_MAX);
	return h;
}

/* The index of file @raw (of @len bytes), added when new; -1 out of memory. */
static long file_index(struct cli_srcmap *m, const char *raw, size_t len)
{
	/* Fragments of one file follow one another: look back from the end. */
	for (size_t i = m->n_files; i-- > 0;)
		if (strlen(m->files[i].raw) == len && !memcmp(m->files[i].raw, raw, len))
			return (long)i;
	if (grow((void **)&m->files, &m->cap_files, m->n_files, sizeof(*m->files)))
		return -1;
	struct file *f = &m->files[m->n_files];
	memset(f, 0, sizeof(*f));
	f->raw = malloc(len + 1);
	if (!f->raw)
		return -1;
	memcpy(f->raw, raw, len);
	f->raw[len] = 0;
	f->name = m->rename ? m->rename(m->rename_user, f->raw) : NULL;
	if (!f->name && !(f->name = strdup(f->raw))) {
		free(f->raw);
		return -1;
	}
	return (long)m->n_files++;
}

/* "FILE:L1:C1-L2:C2" (@s, @len bytes) into *@sp; 0, 1 when it names no
 * place (dtc's "<no-file>:<no-line>"), -1 out of memory. */
static int parse_span(struct cli_srcmap *m, const char *s, size_t len, struct span *sp)
{
	unsigned v[4];
	const char *end = s + len, *p = end;
	/* from the right: C2, L2 (after '-'), C1, L1 */
	for (int k = 3; k >= 0; k--) {
		const char *digits = p;
		while (digits > s && digits[-1] >= '0' && digits[-1] <= '9')
			digits--;
		char sep = k == 2 ? '-' : ':';
		if (digits == p || digits == s || digits[-1] != sep || p - digits > 9)
			return 1;
		v[k] = 0;
		for (const char *d = digits; d < p; d++)
			v[k] = v[k] * 10 + (unsigned)(*d - '0');
		p = digits - 1;
	}
	if (p == s)
		return 1;
	long f = file_index(m, s, (size_t)(p - s));
	if (f < 0)
		return -1;
	*sp = (struct span){(unsigned)f, v[0], v[1], v[2], v[3]};
	return 0;
}

/* The places of one annotation comment (", "-separated) appended to
 * m->frags; *@first receives the index of the first. */
static int parse_spans(struct cli_srcmap *m, const char *s, size_t len,
		       size_t *first, unsigned *n)
{
	*first = m->n_frags;
	*n = 0;
	while (len) {
		const char *comma = memchr(s, ',', len);
		size_t one = comma ? (size_t)(comma - s) : len;
		struct span sp;
		int r = parse_span(m, s, one, &sp);
		if (r < 0)
			return -ENOMEM;
		if (!r) {
			if (grow((void **)&m->frags, &m->cap_frags, m->n_frags,
				 sizeof(*m->frags)))
				return -ENOMEM;
			m->frags[m->n_frags++] = sp;
			(*n)++;
		}
		if (!comma)
			break;
		len -= one + 1;
		s = comma + 1;
		while (len && *s == ' ')
			s++, len--;
	}
	return 0;
}

/* Insert node @i into the hash (rebuilt at 3/4 full). */
static void index_node(struct cli_srcmap *m, size_t i);

static int rehash(struct cli_srcmap *m)
{
	size_t n = m->mask ? (m->mask + 1) * 2 : 1024;
	free(m->slots);
	m->slots = calloc(n, sizeof(*m->slots));
	if (!m->slots)
		return -ENOMEM;
	m->mask = n - 1;
	for (size_t i = 0; i < m->n_nodes; i++)
		index_node(m, i);
	return 0;
}

static void index_node(struct cli_srcmap *m, size_t i)
{
	const char *path = m->paths + m->nodes[i].path;
	size_t h = hash_path(path, strlen(path)) & m->mask;
	while (m->slots[h])
		h = (h + 1) & m->mask;
	m->slots[h] = i + 1;
}

static struct node *find_node(const struct cli_srcmap *m, const char *path)
{
	if (!m->slots)
		return NULL;
	size_t h = hash_path(path, strlen(path)) & m->mask;
	for (; m->slots[h]; h = (h + 1) & m->mask) {
		struct node *n = &m->nodes[m->slots[h] - 1];
		if (!strcmp(m->paths + n->path, path))
			return n;
	}
	return NULL;
}

/* Skip `label: ` prefixes of a node or property line. */
static const char *skip_labels(const char *s, const char *end)
{
	for (;;) {
		const char *p = s;
		while (p < end && (*p == '_' || (*p >= 'a' && *p <= 'z') ||
				   (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			p++;
		if (p == s || p + 1 >= end || p[0] != ':' || p[1] != ' ')
			return s;
		s = p + 2;
	}
}

int cli_srcmap_parse(char *text, size_t len,
		     char *(*rename)(void *user, const char *file), void *user,
		     struct cli_srcmap **out)
{
	*out = NULL;
	struct cli_srcmap *m = calloc(1, sizeof(*m));
	if (!m) {
		free(text);
		return -ENOMEM;
	}
	m->text = text;
	m->rename = rename;
	m->rename_user = user;
	/* the open nodes: their indices, deepest last */
	size_t stack[256];
	unsigned depth = 0;
	int err = 0;
	char *line = text, *end = text + len;
	while (!err && line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		char *eol = nl ? nl : end;
		char *next = nl ? nl + 1 : end;
		/* "... / * SPANS * /" at the end of the line */
		char *s = line;
		while (s < eol && (*s == '\t' || *s == ' '))
			s++;
		char *c = NULL;
		if (eol - s >= 6 && !memcmp(eol - 3, " */", 3)) {
			for (char *p = eol - 3; p - 3 >= s; p--)
				if (!memcmp(p - 3, " /* ", 4)) {
					c = p - 3;
					break;
				}
		}
		if (!c) {
			line = next;
			continue;
		}
		const char *spans = c + 4;
		size_t spans_len = (size_t)(eol - 3 - spans);
		if (c - s >= 2 && !memcmp(c - 2, " {", 2)) {
			/* a node opens */
			const char *name = skip_labels(s, c);
			size_t nlen = (size_t)(c - 2 - name);
			if (grow((void **)&m->nodes, &m->cap_nodes, m->n_nodes,
				 sizeof(*m->nodes))) {
				err = -ENOMEM;
				break;
			}
			struct node *n = &m->nodes[m->n_nodes];
			memset(n, 0, sizeof(*n));
			/* the path: the parent's, '/', the name ("/" alone at
			 * the root) */
			size_t plen = depth ? strlen(m->paths + m->nodes[stack[depth - 1]].path) : 0;
			size_t need = plen + 1 + nlen + 1;
			if (m->len_paths + need > m->cap_paths) {
				size_t ncap = m->cap_paths ? m->cap_paths : 4096;
				while (m->len_paths + need > ncap)
					ncap *= 2;
				char *bigger = realloc(m->paths, ncap);
				if (!bigger) {
					err = -ENOMEM;
					break;
				}
				m->paths = bigger;
				m->cap_paths = ncap;
			}
			char *p = m->paths + m->len_paths;
			n->path = m->len_paths;
			if (!depth) {
				p[0] = '/';
				p[1] = 0;
				m->len_paths += 2;
			} else {
				memcpy(p, m->paths + m->nodes[stack[depth - 1]].path, plen);
				if (plen == 1)
					plen = 0; /* the root's children: "/name" */
				p[plen] = '/';
				memcpy(p + plen + 1, name, nlen);
				p[plen + 1 + nlen] = 0;
				m->len_paths += plen + nlen + 2;
			}
			err = parse_spans(m, spans, spans_len, &n->frag0, &n->n_frags);
			n->prop0 = m->n_props;
			if (!err && (m->n_nodes + 1) * 4 > (m->mask + 1) * 3)
				err = rehash(m);
			if (err)
				break;
			m->n_nodes++;
			index_node(m, m->n_nodes - 1);
			if (depth == sizeof(stack) / sizeof(stack[0])) {
				err = -E2BIG;
				break;
			}
			stack[depth++] = m->n_nodes - 1;
		} else if (c - s >= 2 && s[0] == '}' && s[1] == ';') {
			if (depth)
				depth--;
		} else if (depth && c > s && c[-1] == ';') {
			/* a property: NAME; or NAME = VALUE; */
			char *name = (char *)skip_labels(s, c);
			char *ne = name;
			while (ne < c && *ne != ' ' && *ne != ';')
				ne++;
			struct node *n = &m->nodes[stack[depth - 1]];
			size_t first;
			unsigned k;
			if (grow((void **)&m->props, &m->cap_props, m->n_props,
				 sizeof(*m->props))) {
				err = -ENOMEM;
				break;
			}
			err = parse_spans(m, spans, spans_len, &first, &k);
			if (err)
				break;
			/* only a node's own properties follow it, before its
			 * children: a property after a child closed is none of
			 * this map's shape */
			if (k && n->prop0 + n->n_props == m->n_props) {
				*ne = 0;
				m->props[m->n_props++] = (struct prop){name, m->frags[first]};
				n->n_props++;
			}
			m->n_frags = first; /* a property's place is kept in it */
		}
		line = next;
	}
	if (err) {
		cli_srcmap_free(m);
		return err == -E2BIG ? -E2BIG : -ENOMEM;
	}
	*out = m;
	return 0;
}

void cli_srcmap_free(struct cli_srcmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n_files; i++) {
		free(m->files[i].raw);
		free(m->files[i].name);
		free(m->files[i].data);
	}
	free(m->files);
	free(m->text);
	free(m->nodes);
	free(m->frags);
	free(m->props);
	free(m->paths);
	free(m->slots);
	free(m);
}

/* ---- reading the sources ------------------------------------------------------ */

static const char *file_text(struct cli_srcmap *m, unsigned i, size_t *len)
{
	struct file *f = &m->files[i];
	if (!f->tried) {
		f->tried = 1;
		FILE *in = fopen(f->raw, "rb");
		if (in) {
			size_t cap = 0;
			for (;;) {
				if (f->len == cap) {
					size_t ncap = cap ? cap * 2 : 65536;
					char *bigger = realloc(f->data, ncap + 1);
					if (!bigger)
						break;
					f->data = bigger;
					cap = ncap;
				}
				size_t got = fread(f->data + f->len, 1, cap - f->len, in);
				if (!got)
					break;
				f->len += got;
			}
			if (ferror(in) || !f->data) {
				free(f->data);
				f->data = NULL;
				f->len = 0;
			} else {
				f->data[f->len] = 0;
			}
			fclose(in);
		}
	}
	*len = f->len;
	return f->data;
}

/* The offset of line @line, column @col (both from 1) in @t, or @len. */
static size_t offset_of(const char *t, size_t len, unsigned line, unsigned col)
{
	size_t i = 0;
	for (unsigned l = 1; l < line && i < len; i++)
		if (t[i] == '\n')
			l++;
	for (unsigned c = 1; c < col && i < len && t[i] != '\n'; c++)
		i++;
	return i;
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr(",._+*#?@-", c);
}

/* A preprocessor directive after its '#': a lowercase word then a blank
 * (#include, #define, #if ...; a property such as #size-cells has '-'). */
static int is_directive(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz");
	return n && (s[n] == ' ' || s[n] == '\t' || s[n] == '\n');
}

/* Line and column of offset @at in @t. */
static void line_col(const char *t, size_t at, unsigned *line, unsigned *col)
{
	unsigned l = 1, c = 1;
	for (size_t i = 0; i < at; i++) {
		if (t[i] == '\n')
			l++, c = 1;
		else
			c++;
	}
	*line = l;
	*col = c;
}

/*
 * Where fragment @sp (from its '{' to its '}') assigns @property in its
 * own body (not a child's): a name at depth 1 followed by '=' or ';'.
 * Comments, strings, cell and byte lists, `/keyword/ ...;` (deletions) and
 * preprocessor lines are skipped. Returns 1 and *@at, or 0.
 */
static int fragment_sets(struct cli_srcmap *m, const struct span *sp,
			 const char *property, struct cli_loc *at)
{
	size_t len;
	const char *t = file_text(m, sp->file, &len);
	if (!t)
		return 0;
	size_t i = offset_of(t, len, sp->l1, sp->c1);
	size_t stop = offset_of(t, len, sp->l2, sp->c2);
	while (i < stop && t[i] != '{')
		i++;
	if (i >= stop)
		return 0;
	i++;
	int depth = 1, line_start = 0;
	size_t plen = strlen(property);
	while (i < stop && depth > 0) {
		char ch = t[i];
		if (ch == '\n') {
			line_start = 1;
			i++;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\r') {
			i++;
			continue;
		}
		int at_line_start = line_start;
		line_start = 0;
		if (ch == '/' && i + 1 < len && t[i + 1] == '*') {
			const char *e = strstr(t + i + 2, "*/");
			i = e ? (size_t)(e - t) + 2 : stop;
		} else if (ch == '/' && i + 1 < len && t[i + 1] == '/') {
			while (i < stop && t[i] != '\n')
				i++;
		} else if (ch == '"') {
			for (i++; i < stop && t[i] != '"'; i++)
				if (t[i] == '\\')
					i++;
			i++;
		} else if (ch == '<' || ch == '[') {
			char close = ch == '<' ? '>' : ']';
			while (i < stop && t[i] != close)
				i++;
			i++;
		} else if (ch == '/') {
			/* /delete-property/ NAME; and the like */
			while (i < stop && t[i] != ';')
				i++;
		} else if (ch == '{') {
			depth++;
			i++;
		} else if (ch == '}') {
			depth--;
			i++;
		} else if (ch == '#' && at_line_start && is_directive(t + i + 1)) {
			/* a preprocessor line (#include, #define, #if ...),
			 * continued by backslashes */
			while (i < stop && t[i] != '\n') {
				if (t[i] == '\\' && i + 1 < stop && t[i + 1] == '\n')
					i++;
				i++;
			}
		} else if (is_name_char(ch)) {
			size_t s = i;
			while (i < stop && is_name_char(t[i]))
				i++;
			size_t e = i;
			while (i < stop && (t[i] == ' ' || t[i] == '\t'))
				i++;
			if (depth == 1 && i < stop && (t[i] == '=' || t[i] == ';') &&
			    e - s == plen && !memcmp(t + s, property, plen)) {
				at->file = m->files[sp->file].name;
				line_col(t, s, &at->line, &at->col);
				return 1;
			}
		} else {
			i++;
		}
	}
	return 0;
}

/* The column of node @name on line @line of @sp's file, before @col
 * (dtc gives the column of the '{'); @col when not found. */
static unsigned name_col(struct cli_srcmap *m, const struct span *sp, const char *name)
{
	size_t len;
	const char *t = file_text(m, sp->file, &len);
	if (!t || !*name)
		return sp->c1;
	size_t start = offset_of(t, len, sp->l1, 1), brace = offset_of(t, len, sp->l1, sp->c1);
	size_t n = strlen(name);
	for (size_t i = start; i + n <= brace; i++)
		if (!memcmp(t + i, name, n) && (i == start || !is_name_char(t[i - 1])) &&
		    !is_name_char(t[i + n]))
			return (unsigned)(i - start) + 1;
	return sp->c1;
}

static int span_holds(const struct span *f, const struct span *p)
{
	return f->file == p->file &&
	       (p->l1 > f->l1 || (p->l1 == f->l1 && p->c1 >= f->c1)) &&
	       (p->l1 < f->l2 || (p->l1 == f->l2 && p->c1 <= f->c2));
}

int cli_srcmap_find(struct cli_srcmap *m, const char *path,
		    const char *property, struct cli_loc *at,
		    struct cli_loc *first)
{
	memset(at, 0, sizeof(*at));
	memset(first, 0, sizeof(*first));
	/* the board as a whole (load-failed, dt-corrupt): no one line */
	if (!strcmp(path, "/") && !property)
		return -ENOENT;
	struct node *n = m ? find_node(m, path) : NULL;
	if (!n || !n->n_frags)
		return -ENOENT;
	const struct prop *p = NULL;
	for (unsigned i = 0; property && i < n->n_props; i++)
		if (!strcmp(m->props[n->prop0 + i].name, property))
			p = &m->props[n->prop0 + i];
	if (!p) {
		const struct span *sp = &m->frags[n->frag0];
		const char *base = strrchr(path, '/');
		at->file = m->files[sp->file].name;
		at->line = sp->l1;
		at->col = name_col(m, sp, base ? base + 1 : path);
		return 0;
	}
	at->file = m->files[p->at.file].name;
	at->line = p->at.l1;
	at->col = p->at.c1;
	/* the fragment it was written in; an earlier one that set it too */
	unsigned k = 0;
	while (k < n->n_frags && !span_holds(&m->frags[n->frag0 + k], &p->at))
		k++;
	for (unsigned i = 0; i < k && i < n->n_frags; i++)
		if (fragment_sets(m, &m->frags[n->frag0 + i], property, first))
			break;
	return 0;
}
