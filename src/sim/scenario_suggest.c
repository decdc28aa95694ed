/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean" support: edit distance and nearest-candidate search.
 *
 * Names in scenarios are short (labels such as `gpu_gdsc`, `venus`), so a
 * quadratic distance over three stack rows is plenty; nothing allocates.
 */
#include <domino/scenario.h>

#include <string.h>

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

size_t dmn_scn_edit_distance(const char *a, const char *b)
{
	/* Three rows: two back for the transposition case, one back, current.
	 */
	size_t rows[3][DMN_SCN_EDIT_MAX + 1];
	size_t full_a, full_b, la, lb;

	if (!a)
		a = "";
	if (!b)
		b = "";
	full_a = strlen(a);
	full_b = strlen(b);
	la = full_a < DMN_SCN_EDIT_MAX ? full_a : DMN_SCN_EDIT_MAX;
	lb = full_b < DMN_SCN_EDIT_MAX ? full_b : DMN_SCN_EDIT_MAX;
	size_t rest_a = full_a - la, rest_b = full_b - lb;
	size_t extra = rest_a > rest_b ? rest_a - rest_b : rest_b - rest_a;

	size_t *two_back = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t d = min3(prev[j] + 1, cur[j - 1] + 1,
					prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && two_back[j - 2] + 1 < d)
				d = two_back[j - 2] + 1;
			cur[j] = d;
		}
		size_t *t = two_back;
		two_back = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb] + extra;
}

static int equal_ignoring_case(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = (*a >= 'A' && *a <= 'Z') ? (char)(*a - 'A' + 'a') : *a;
		char y = (*b >= 'A' && *b <= 'Z') ? (char)(*b - 'A' + 'a') : *b;
		if (x != y)
			return 0;
	}
	return *a == *b;
}

const char *dmn_scn_suggest_fn(const char *name, dmn_scn_name_fn name_at, void *user,
			   size_t n)
{
	if (!name || !name_at)
		return NULL;
	size_t limit = strlen(name) / 3;
	if (limit < 1)
		limit = 1;

	const char *best = NULL;
	size_t best_score = (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		const char *cand = name_at(user, i);
		if (!cand)
			continue;
		if (!strcmp(cand, name))
			return NULL; /* not a typo: the caller matched wrongly
				      */
		/* Scores are doubled so a pure case difference ranks between
		 * an exact match and one real edit. */
		size_t score;
		if (equal_ignoring_case(cand, name))
			score = 1;
		else {
			size_t d = dmn_scn_edit_distance(name, cand);
			if (d > limit)
				continue;
			score = 2 * d;
		}
		if (score < best_score) {
			best_score = score;
			best = cand;
		}
	}
	return best;
}

static const char *array_at(void *user, size_t i)
{
	const char *const *candidates = user;
	return candidates[i];
}

const char *dmn_scn_suggest(const char *name, const char *const *candidates,
			size_t n)
{
	if (!candidates)
		return NULL;
	/* The cast drops const only to fit the callback's void *; array_at
	 * reads through a const pointer again. */
	return dmn_scn_suggest_fn(name, array_at, (void *)(uintptr_t)candidates, n);
}
