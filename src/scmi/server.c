/* SPDX-License-Identifier: MIT */
/* SCMI server: creation, message dispatch, the notification queue. */
#include "scmi_internal.h"
#include "../core/alloc.h"
#include "../core/bsearch.h"

#include <stdlib.h>

const char *dmn_scmi_status_name(int32_t status)
{
	static const char *const names[] = {
	    "SUCCESS",	      "NOT_SUPPORTED",	"INVALID_PARAMETERS",
	    "DENIED",	      "NOT_FOUND",	"OUT_OF_RANGE",
	    "BUSY",	      "COMMS_ERROR",	"GENERIC_ERROR",
	    "HARDWARE_ERROR", "PROTOCOL_ERROR",
	};
	if (status > 0 || status < DMN_SCMI_PROTOCOL_ERROR)
		return "?";
	return names[-status];
}

/* The status a core error becomes. Callback failures (-EIO from a rail)
 * are the hardware's; -ENOMEM and stale handles are the platform's own. */
int32_t dmn__scmi_status_of(int err)
{
	switch (err) {
	case 0:
		return DMN_SCMI_SUCCESS;
	case -ERANGE:
		return DMN_SCMI_OUT_OF_RANGE;
	case -EBUSY:
		return DMN_SCMI_BUSY;
	case -EINVAL:
		return DMN_SCMI_INVALID_PARAMETERS;
	case -ENODEV:
	case -EOPNOTSUPP:
		return DMN_SCMI_NOT_SUPPORTED;
	case -EACCES:
	case -EPERM:
		return DMN_SCMI_DENIED;
	case -ENOMEM:
	case -EBADF:
	case -EOVERFLOW:
		return DMN_SCMI_GENERIC_ERROR;
	default:
		return DMN_SCMI_HARDWARE_ERROR;
	}
}

static void *zalloc(struct dmn_scmi_server *s, size_t n, size_t size)
{
	if (!n)
		n = 1;
	if (size && n > (size_t)-1 / size)
		return NULL;
	void *p = s->alloc.alloc(s->alloc.user, n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

static void release(struct dmn_scmi_server *s, void *p)
{
	if (p)
		s->alloc.free(s->alloc.user, p);
}

/* @src cut to @size - 1 bytes, NUL-padded to @size. */
static void copy_name(char *dst, size_t size, const char *src)
{
	memset(dst, 0, size);
	if (src)
		for (size_t i = 0; i < size - 1 && src[i]; i++)
			dst[i] = src[i];
}

/* ---- notifications --------------------------------------------------------
 */

void dmn__scmi_note(struct dmn_scmi_server *s, enum scmi__note_kind kind,
		uint32_t agent, uint32_t domain, uint32_t a, uint32_t b)
{
	if (s->note_count == s->note_cap) {
		s->dropped++;
		return;
	}
	DMN_ASSERT(s->note_count < s->note_cap && s->note_head < s->note_cap);
	struct scmi__note *n =
	    &s->notes[(s->note_head + s->note_count++) % s->note_cap];
	n->kind = kind;
	n->agent = agent;
	n->domain = domain;
	n->a = a;
	n->b = b;
}

static bool handle_before(const void *base, size_t i, const void *key)
{
	const struct scmi__handle_map *v = base;
	return v[i].handle < *(const uint32_t *)key;
}

static const struct scmi__handle_map *map_find(const struct dmn_scmi_server *s,
					       uint32_t handle)
{
	size_t lo = dmn__lower_bound(s->n_map, s->map, &handle, handle_before);
	return lo < s->n_map && s->map[lo].handle == handle ? &s->map[lo]
							    : NULL;
}

/* While a library operation (a device's get, put or vote, which no
 * command's status covers) rolls back (DMN_EV_ROLLBACK, then its undo
 * steps in reverse order), a step that reverses the latest queued note
 * removes it: a rolled-back operation changed nothing, so nothing is
 * notified (docs/scmi.md, Semantics). An undo whose callback failed
 * emits no event, so the change it could not reverse keeps its note. The
 * undo ends at the first step that reverses nothing, at the end of a
 * command and in dmn_scmi_deliver() (which the caller runs after each
 * operation on the context). Returns 1 if it cancelled a note. */
static int cancel_undone(struct dmn_scmi_server *s, uint32_t kind,
			 uint32_t domain, uint32_t a, uint32_t b)
{
	if (!s->undoing)
		return 0;
	if (!s->note_count || s->dropped != s->dropped_at_start) {
		s->undoing = 0;
		return 0;
	}
	const struct scmi__note *n =
	    &s->notes[(s->note_head + s->note_count - 1) % s->note_cap];
	int reverses = n->kind == kind && n->domain == domain &&
		       (kind == NOTE_POWER ? n->a != a : n->a == b && n->b == a);
	if (!reverses) {
		s->undoing = 0;
		return 0;
	}
	s->note_count--;
	return 1;
}

#define NOTE_GONE UINT32_MAX /* settle_failed's mark on an agent field */

static struct scmi__note *note_at(struct dmn_scmi_server *s, unsigned i)
{
	DMN_ASSERT(i < s->note_count && "a queued note");
	return &s->notes[(s->note_head + i) % s->note_cap];
}

/*
 * A command or asynchronous request failed: it changed nothing, except
 * where an undo's own callback failed (a safe-direction failure: that
 * domain stays where its callback left it, docs/semantics.md, Failures).
 * Of the notes it queued from @mark on, each domain keeps one, from where
 * it was before the command (the first note's old state or level) to
 * where it is now, and only if the two differ; limits notes go, as a
 * failed LIMITS_SET restores the limits. O(k^2) in the k notes the command
 * queued, at most a few per domain.
 */
static void settle_failed(struct dmn_scmi_server *s, unsigned mark)
{
	/* Inside a command nothing removes a note (cancel_undone is for
	 * library operations only, and delivery waits for the command to
	 * end), so the notes queued before it are all still there. */
	DMN_ASSERT(mark <= s->note_count);
	for (unsigned i = mark; i < s->note_count; i++) {
		struct scmi__note *n = note_at(s, i);
		int first = n->kind != NOTE_LIMITS;
		for (unsigned j = mark; j < i && first; j++) {
			const struct scmi__note *e = note_at(s, j);
			first = e->kind != n->kind || e->domain != n->domain;
		}
		struct dmn_domain_info info;
		if (!first ||
		    dmn_domain_info(s->ctx,
				    n->kind == NOTE_POWER
					? s->power[n->domain]
					: s->perf[n->domain].domain,
				    &info)) {
			n->agent = NOTE_GONE;
			continue;
		}
		if (n->kind == NOTE_POWER) {
			uint32_t now = info.on ? DMN_SCMI_POWER_ON
					       : DMN_SCMI_POWER_OFF;
			if (now != n->a) /* back where it was */
				n->agent = NOTE_GONE;
		} else if (info.pstate == n->b) {
			n->agent = NOTE_GONE;
		} else {
			n->a = info.pstate;
		}
	}
	unsigned kept = mark;
	for (unsigned i = mark; i < s->note_count; i++)
		if (note_at(s, i)->agent != NOTE_GONE)
			*note_at(s, kept++) = *note_at(s, i);
	s->note_count = kept;
}

/* Runs under the context lock: queue only. */
static void on_event(void *user, struct dmn_ctx *ctx,
		     const struct dmn_event *ev)
{
	(void)ctx;
	struct dmn_scmi_server *s = user;
	const struct scmi__handle_map *m;
	uint32_t state = ev->kind == DMN_EV_POWER_ON ? DMN_SCMI_POWER_ON
						     : DMN_SCMI_POWER_OFF;
	switch (ev->kind) {
	case DMN_EV_ROLLBACK:
		s->undoing = !s->in_command;
		break;
	case DMN_EV_POWER_ON:
	case DMN_EV_POWER_OFF:
		m = map_find(s, ev->domain);
		if (m && m->power >= 0 &&
		    !cancel_undone(s, NOTE_POWER, (uint32_t)m->power, state, 0))
			dmn__scmi_note(s, NOTE_POWER, s->cur_agent,
				   (uint32_t)m->power, state, 0);
		break;
	case DMN_EV_PSTATE:
		m = map_find(s, ev->domain);
		if (m && m->perf >= 0 &&
		    !cancel_undone(s, NOTE_LEVEL, (uint32_t)m->perf,
				   (uint32_t)ev->new_value,
				   (uint32_t)ev->old_value))
			dmn__scmi_note(s, NOTE_LEVEL, s->level_agent,
				   (uint32_t)m->perf, (uint32_t)ev->new_value,
				   (uint32_t)ev->old_value);
		break;
	default:
		break;
	}
}

static int send_note(struct dmn_scmi_server *s, const struct scmi__note *n)
{
	uint8_t msg[20];
	uint32_t id = n->kind == NOTE_LEVEL ? 1 : 0; /* POWER_STATE_CHANGED,
							 LIMITS_CHANGED = 0 */
	uint32_t proto =
	    n->kind == NOTE_POWER ? DMN_SCMI_PROTOCOL_POWER : DMN_SCMI_PROTOCOL_PERF;
	size_t len = n->kind == NOTE_LIMITS ? 20 : 16;
	scmi__put32(msg, dmn_scmi_header(proto, id, DMN_SCMI_TYPE_NOTIFICATION, 0));
	scmi__put32(msg + 4, n->agent);
	scmi__put32(msg + 8, n->domain);
	scmi__put32(msg + 12, n->a);
	scmi__put32(msg + 16, n->b);
	int sent = 0;
	for (unsigned i = 0; i < s->n_agents; i++) {
		const struct scmi__agent *a = &s->agents[i];
		const uint8_t *bits = n->kind == NOTE_POWER ? a->notify_power
				      : n->kind == NOTE_LEVEL
					  ? a->notify_level
					  : a->notify_limits;
		if (!scmi__bit(bits, n->domain))
			continue;
		if (s->send)
			s->send(s->send_user, a->id, msg, len);
		sent++;
	}
	return sent;
}

static int flush_notes(struct dmn_scmi_server *s)
{
	int sent = 0;
	while (s->note_count) {
		struct scmi__note n = s->notes[s->note_head];
		s->note_head = (s->note_head + 1) % s->note_cap;
		s->note_count--;
		sent += send_note(s, &n);
	}
	return sent;
}

int dmn_scmi_deliver(struct dmn_scmi_server *s)
{
	if (!s)
		return -EINVAL;
	s->undoing = 0;
	int sent = flush_notes(s);
	while (s->async_count) {
		struct scmi__agent *a =
		    &s->agents[s->async_fifo[s->async_head]];
		s->async_head = (s->async_head + 1) % s->n_agents;
		s->async_count--;
		a->async.pending = 0;
		unsigned mark = s->note_count;
		s->cur_agent = s->level_agent = a->id;
		s->in_command = 1;
		int err = dmn__scmi_power_set(s, a, a->async.domain,
					  a->async.state == DMN_SCMI_POWER_ON);
		s->in_command = 0;
		s->cur_agent = s->level_agent = 0;
		if (err)
			settle_failed(s, mark);
		uint8_t msg[16];
		scmi__put32(msg, dmn_scmi_header(DMN_SCMI_PROTOCOL_POWER, 4,
					     DMN_SCMI_TYPE_DELAYED_RESPONSE,
					     a->async.token));
		scmi__put32(msg + 4, (uint32_t)dmn__scmi_status_of(err));
		scmi__put32(msg + 8, a->async.domain);
		scmi__put32(msg + 12, a->async.state);
		if (s->send)
			s->send(s->send_user, a->id, msg, sizeof(msg));
		sent++;
		sent += flush_notes(s);
	}
	s->dropped_at_start = s->dropped;
	return sent;
}

unsigned long dmn_scmi_dropped(const struct dmn_scmi_server *s)
{
	return s ? s->dropped : 0;
}

/* ---- dispatch --------------------------------------------------------------
 */

static const struct scmi__protocol *const protocols[] = {
    &dmn__scmi_base,
    &dmn__scmi_power,
    &dmn__scmi_perf,
};
#define N_PROTOCOLS (sizeof(protocols) / sizeof(*protocols))

static const struct scmi__protocol *protocol_of(uint32_t header)
{
	for (unsigned i = 0; i < N_PROTOCOLS; i++)
		if (protocols[i]->id == dmn_scmi_header_protocol(header))
			return protocols[i];
	return NULL;
}

/* Message @id of @p as agent @a sees it, or NULL: a message of the newer
 * version does not exist for an agent at 2.0 (its answers are 2.0's). */
const struct scmi__message *dmn__scmi_message(const struct dmn_scmi_server *s,
					      const struct scmi__agent *a,
					      const struct scmi__protocol *p,
					      uint32_t id)
{
	if (id >= p->n_messages || !p->messages[id].fn)
		return NULL;
	const struct scmi__message *m = &p->messages[id];
	if ((m->since & MSG_NEWER) && !scmi__newer(a, p->slot))
		return NULL;
	if ((m->since & MSG_NAME) && !s->ext_names)
		return NULL;
	return m;
}

int32_t dmn__scmi_version(struct dmn_scmi_server *s, struct scmi__agent *a,
		      const uint8_t *pl, struct scmi__reply *r)
{
	(void)pl;
	scmi__add32(r, a->version[protocol_of(s->cur_header)->slot]);
	return DMN_SCMI_SUCCESS;
}

int32_t dmn__scmi_message_attributes(const struct dmn_scmi_server *s,
				     const struct scmi__agent *a,
				     const struct scmi__protocol *p,
				     const uint8_t *pl, struct scmi__reply *r)
{
	if (!dmn__scmi_message(s, a, p, scmi__get32(pl)))
		return DMN_SCMI_NOT_FOUND;
	/* No fast channels and nothing else to announce. */
	scmi__add32(r, 0);
	return DMN_SCMI_SUCCESS;
}

/* NEGOTIATE_PROTOCOL_VERSION (0x10 of every protocol, newer versions
 * only): the version served, or 2.0, after which the agent gets 2.0's
 * answers of this protocol, this message's NOT_FOUND included. */
int32_t dmn__scmi_negotiate(struct dmn_scmi_server *s, struct scmi__agent *a,
			    const uint8_t *pl, struct scmi__reply *r)
{
	(void)r;
	const struct scmi__protocol *p = protocol_of(s->cur_header);
	uint32_t want = scmi__get32(pl);
	if (want != p->version && want != DMN_SCMI_PROTOCOL_VERSION_2_0)
		return DMN_SCMI_NOT_SUPPORTED;
	a->version[p->slot] = want;
	return DMN_SCMI_SUCCESS;
}

/* POWER_DOMAIN_NAME_GET and PERFORMANCE_DOMAIN_NAME_GET: flags (none),
 * then the name, NUL-padded to 64 bytes. A caller's buffer too small for
 * it gets GENERIC_ERROR (max_msg fits it, or the message is absent). */
int32_t dmn__scmi_name_get(const char *name, struct scmi__reply *r)
{
	if (r->cap - r->len < 4 + DMN_SCMI_EXT_NAME_SIZE)
		return DMN_SCMI_GENERIC_ERROR;
	scmi__add32(r, 0);
	scmi__add_bytes(r, name, DMN_SCMI_EXT_NAME_SIZE);
	return DMN_SCMI_SUCCESS;
}

int dmn_scmi_handle(struct dmn_scmi_server *s, uint32_t agent_id, const void *msg,
		size_t len, void *reply, size_t cap, size_t *reply_len)
{
	if (!s || (!msg && len) || !reply || !reply_len)
		return -EINVAL;
	if (agent_id > DMN_SCMI_MAX_AGENTS || !s->agent_index[agent_id])
		return -ENOENT;
	if (cap < DMN_SCMI_MIN_MSG)
		return -ENOSPC;
	DMN_ASSERT(s->agent_index[agent_id] <= s->n_agents);
	struct scmi__agent *a = &s->agents[s->agent_index[agent_id] - 1];
	struct scmi__reply r = {reply, cap < s->max_msg ? cap : s->max_msg, 8};
	DMN_ASSERT(r.cap >= DMN_SCMI_MIN_MSG && "check_config keeps max_msg at least that");
	const uint8_t *in = msg;
	uint8_t head[4] = {0, 0, 0, 0};
	if (len) /* NULL with 0 bytes is allowed; memcpy from NULL is not */
		memcpy(head, in, len < 4 ? len : 4);
	uint32_t header = scmi__get32(head);
	int32_t status;
	if (len < 4) {
		header = 0;
		status = DMN_SCMI_PROTOCOL_ERROR;
	} else if (dmn_scmi_header_type(header) != DMN_SCMI_TYPE_COMMAND) {
		status = DMN_SCMI_PROTOCOL_ERROR;
	} else {
		const struct scmi__protocol *p = protocol_of(header);
		const struct scmi__message *m =
		    p ? dmn__scmi_message(s, a, p, dmn_scmi_header_msg(header))
		      : NULL;
		if (!p) {
			status = DMN_SCMI_NOT_SUPPORTED;
		} else if (!m) {
			status = DMN_SCMI_NOT_FOUND;
		} else if (len - 4 != m->payload) {
			status = DMN_SCMI_PROTOCOL_ERROR;
		} else {
			unsigned mark = s->note_count;
			s->cur_agent = s->level_agent = a->id;
			s->cur_header = header;
			s->undoing = 0;
			s->in_command = 1;
			status = m->fn(s, a, in + 4, &r);
			s->in_command = 0;
			s->cur_agent = s->level_agent = 0;
			s->dropped_at_start = s->dropped;
			if (status != DMN_SCMI_SUCCESS)
				settle_failed(s, mark);
		}
	}
	DMN_ASSERT(r.len >= 8 && r.len <= r.cap);
	if (status != DMN_SCMI_SUCCESS)
		r.len = 8;
	/* A reply is a response to a command whatever type was sent, so
	 * that the agent's transport matches it by token. */
	scmi__put32(r.buf, header & ~(3u << 8));
	scmi__put32(r.buf + 4, (uint32_t)status);
	*reply_len = r.len;
	return 0;
}

/* ---- creation --------------------------------------------------------------
 */

/* "scmi:AGENT:KIND:N": the devices show up under these names in reports.
 * device_name cuts a longer agent name, keeping room for the index (an
 * agent's name on the wire is 15 bytes: it fits whole). */
#define SCMI_DEVICE_NAME_LEN 64
/* The notification queue holds 4 per domain plus this many (scmi.h). */
#define SCMI_NOTE_SPARE 64

static void device_name(char *buf, size_t size, const char *agent,
			const char *kind, unsigned n)
{
	size_t len = 0;
	const char *parts[] = {"scmi:", agent, ":", kind, ":"};
	for (unsigned p = 0; p < 5; p++)
		for (const char *c = parts[p]; *c && len + 12 < size; c++)
			buf[len++] = *c;
	char digits[12];
	unsigned nd = 0;
	do {
		digits[nd++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (nd)
		buf[len++] = digits[--nd];
	buf[len] = 0;
}

static int add_device(struct dmn_scmi_server *s, const char *agent,
		      const char *kind, unsigned n, dmn_domain_t dom,
		      dmn_device_t *dev, dmn_attach_t *att)
{
	char name[SCMI_DEVICE_NAME_LEN];
	device_name(name, sizeof(name), agent, kind, n);
	int err = dmn_device_create(s->ctx, name, dev);
	if (err)
		return err;
	err = dmn_attach(s->ctx, *dev, dom, att);
	if (err) {
		dmn_device_remove(s->ctx, *dev);
		*dev = 0;
	}
	return err;
}

static int check_config(const struct dmn_scmi_config *c)
{
	if (!c->ctx || !c->n_agents || c->n_agents > DMN_SCMI_MAX_AGENTS ||
	    !c->agents || (c->n_power && !c->power) ||
	    (c->n_perf && !c->perf) || c->n_power > 0xffff ||
	    c->n_perf > 0xffff || (!c->alloc.alloc != !c->alloc.free) ||
	    (c->max_msg && c->max_msg < DMN_SCMI_MIN_MSG))
		return -EINVAL;
	uint8_t seen[DMN_SCMI_MAX_AGENTS + 1];
	memset(seen, 0, sizeof(seen));
	for (unsigned i = 0; i < c->n_agents; i++) {
		const struct dmn_scmi_agent *a = &c->agents[i];
		if (!a->id || a->id > DMN_SCMI_MAX_AGENTS || seen[a->id] ||
		    !a->name || !a->name[0] ||
		    (a->version && a->version != DMN_SCMI_PROTOCOL_VERSION_2_0) ||
		    (a->flags & ~DMN_SCMI_AGENT_OWN_READS))
			return -EINVAL;
		seen[a->id] = 1;
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(c->agents[j].name, a->name))
				return -EINVAL;
	}
	for (unsigned j = 0; j < c->n_perf; j++) {
		const struct dmn_scmi_perf_domain *p = &c->perf[j];
		if (!p->n_levels || !p->levels)
			return -EINVAL;
		for (unsigned k = 1; k < p->n_levels; k++)
			if (p->levels[k].level <= p->levels[k - 1].level)
				return -EINVAL;
	}
	return 0;
}

/* The map's order: by handle, then power domains before perf domains,
 * each by wire index (so the first of equal handles wins, as before). */
static int map_before(const struct scmi__handle_map *a,
		      const struct scmi__handle_map *b)
{
	if (a->handle != b->handle)
		return a->handle < b->handle;
	uint32_t oa = a->power >= 0 ? (uint32_t)a->power
				    : 0x10000u + (uint32_t)a->perf;
	uint32_t ob = b->power >= 0 ? (uint32_t)b->power
				    : 0x10000u + (uint32_t)b->perf;
	return oa < ob;
}

static void map_sift(struct scmi__handle_map *m, unsigned root, unsigned n)
{
	for (unsigned child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && map_before(&m[child], &m[child + 1]))
			child++;
		if (!map_before(&m[root], &m[child]))
			return;
		struct scmi__handle_map t = m[root];
		m[root] = m[child];
		m[child] = t;
	}
}

/* Handle -> wire indices: one entry per wire domain, heap-sorted (no
 * libc sort, no recursion: a freestanding build links this; an insertion
 * per domain was quadratic, 4 s at 65,535 domains), then equal handles
 * merged. */
static int build_map(struct dmn_scmi_server *s)
{
	unsigned n = s->n_power + s->n_perf;
	s->map = zalloc(s, n, sizeof(*s->map));
	if (!s->map)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		struct scmi__handle_map *m = &s->map[i];
		int power = i < s->n_power;
		m->handle = power ? s->power[i] : s->perf[i - s->n_power].domain;
		m->power = power ? (int32_t)i : -1;
		m->perf = power ? -1 : (int32_t)(i - s->n_power);
	}
	for (unsigned i = n / 2; i-- > 0;)
		map_sift(s->map, i, n);
	for (unsigned end = n; end > 1; end--) {
		struct scmi__handle_map t = s->map[0];
		s->map[0] = s->map[end - 1];
		s->map[end - 1] = t;
		map_sift(s->map, 0, end - 1);
	}
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++) {
		struct scmi__handle_map m = s->map[i];
		struct scmi__handle_map *last = k ? &s->map[k - 1] : NULL;
		if (last && last->handle == m.handle) {
			if (last->power < 0)
				last->power = m.power;
			if (last->perf < 0)
				last->perf = m.perf;
		} else {
			s->map[k++] = m;
		}
	}
	/* map_find's binary search relies on it */
	for (unsigned i = 1; DMN_CHECKS && i < k; i++)
		DMN_ASSERT(s->map[i - 1].handle < s->map[i].handle &&
			   "the map is sorted by handle, one entry each");
	s->n_map = k;
	return 0;
}

static int build_agent(struct dmn_scmi_server *s, struct scmi__agent *a,
		       const struct dmn_scmi_agent *c)
{
	size_t pbytes = (s->n_power + 7) / 8, fbytes = (s->n_perf + 7) / 8;
	a->id = c->id;
	copy_name(a->name, sizeof(a->name), c->name);
	for (unsigned k = 0; k < N_PROTOCOLS; k++)
		a->version[protocols[k]->slot] =
		    c->version ? c->version : protocols[k]->version;
	a->own_reads = !!(c->flags & DMN_SCMI_AGENT_OWN_READS);
	a->power = zalloc(s, s->n_power, sizeof(*a->power));
	a->perf = zalloc(s, s->n_perf, sizeof(*a->perf));
	a->notify_power = zalloc(s, pbytes, 1);
	a->notify_level = zalloc(s, fbytes, 1);
	a->notify_limits = zalloc(s, fbytes, 1);
	if (!a->power || !a->perf || !a->notify_power || !a->notify_level ||
	    !a->notify_limits)
		return -ENOMEM;
	for (unsigned i = 0; i < s->n_power; i++) {
		if (!scmi__bit(c->power, i))
			continue;
		int err = add_device(s, c->name, "power", i, s->power[i],
				     &a->power[i].dev, &a->power[i].att);
		if (err)
			return err;
	}
	for (unsigned j = 0; j < s->n_perf; j++) {
		struct scmi__perf_dom *d = &s->perf[j];
		a->perf[j].min = d->levels[0].level;
		a->perf[j].max = d->levels[d->n_levels - 1].level;
		if (!scmi__bit(c->perf, j))
			continue;
		int err = add_device(s, c->name, "perf", j, d->domain,
				     &a->perf[j].dev, &a->perf[j].att);
		if (err)
			return err;
	}
	return 0;
}

int dmn_scmi_server_create(const struct dmn_scmi_config *c, struct dmn_scmi_server **out)
{
	if (!c || !out)
		return -EINVAL;
	int err = check_config(c);
	if (err)
		return err;
	struct dmn_alloc_ops alloc = dmn__alloc_ops_or_default(&c->alloc);
	struct dmn_scmi_server *s = alloc.alloc(alloc.user, sizeof(*s));
	if (!s)
		return -ENOMEM;
	memset(s, 0, sizeof(*s));
	s->alloc = alloc;
	s->ctx = c->ctx;
	s->max_msg = c->max_msg ? c->max_msg : DMN_SCMI_DEFAULT_MAX_MSG;
	copy_name(s->vendor, sizeof(s->vendor),
		  c->vendor ? c->vendor : "domino");
	copy_name(s->sub_vendor, sizeof(s->sub_vendor),
		  c->sub_vendor ? c->sub_vendor : "domino");
	s->ext_names = s->max_msg >= DMN_SCMI_NAME_MSG;
	s->impl_version = c->impl_version
			      ? c->impl_version
			      : (uint32_t)DMN_VERSION_MAJOR << 16 |
				    (uint32_t)DMN_VERSION_MINOR << 8 |
				    DMN_VERSION_PATCH;
	s->send = c->send;
	s->send_user = c->send_user;
	s->n_power = c->n_power;
	s->n_perf = c->n_perf;
	s->power = zalloc(s, c->n_power, sizeof(*s->power));
	s->power_names = zalloc(s, c->n_power, sizeof(*s->power_names));
	s->power_ext = zalloc(s, c->n_power, sizeof(*s->power_ext));
	s->perf = zalloc(s, c->n_perf, sizeof(*s->perf));
	s->agents = zalloc(s, c->n_agents, sizeof(*s->agents));
	s->scratch = zalloc(s, c->n_agents, sizeof(*s->scratch));
	s->async_fifo = zalloc(s, c->n_agents, sizeof(*s->async_fifo));
	s->note_cap = 4 * (c->n_power + c->n_perf) + SCMI_NOTE_SPARE;
	s->notes = zalloc(s, s->note_cap, sizeof(*s->notes));
	if (!s->power || !s->power_names || !s->power_ext || !s->perf ||
	    !s->agents || !s->scratch || !s->async_fifo || !s->notes) {
		err = -ENOMEM;
		goto fail;
	}
	for (unsigned i = 0; i < c->n_power; i++) {
		s->power[i] = c->power[i].domain;
		copy_name(s->power_names[i], DMN_SCMI_NAME_SIZE,
			  c->power[i].name);
		copy_name(s->power_ext[i], DMN_SCMI_EXT_NAME_SIZE,
			  c->power[i].name);
	}
	for (unsigned j = 0; j < c->n_perf; j++) {
		const struct dmn_scmi_perf_domain *p = &c->perf[j];
		struct scmi__perf_dom *d = &s->perf[j];
		d->domain = p->domain;
		copy_name(d->name, sizeof(d->name), p->name);
		copy_name(d->ext_name, sizeof(d->ext_name), p->name);
		d->levels = zalloc(s, p->n_levels, sizeof(*d->levels));
		if (!d->levels) {
			err = -ENOMEM;
			goto fail;
		}
		memcpy(d->levels, p->levels, p->n_levels * sizeof(*d->levels));
		for (unsigned k = 0; k < p->n_levels; k++)
			s->perf_uw |= p->levels[k].power_uw != 0;
		d->n_levels = p->n_levels;
		d->eff_min = d->levels[0].level;
		d->eff_max = d->levels[d->n_levels - 1].level;
	}
	err = build_map(s);
	if (err)
		goto fail;
	for (unsigned i = 0; i < c->n_agents; i++) {
		s->n_agents = i + 1;
		err = build_agent(s, &s->agents[i], &c->agents[i]);
		if (err)
			goto fail;
		s->agent_index[c->agents[i].id] = (uint8_t)(i + 1);
	}
	err = dmn_listen(s->ctx, on_event, s);
	if (err)
		goto fail;
	s->listening = 1;
	*out = s;
	return 0;
fail:
	dmn_scmi_server_destroy(s);
	return err;
}

void dmn_scmi_server_destroy(struct dmn_scmi_server *s)
{
	if (!s)
		return;
	for (unsigned i = 0; s->agents && i < s->n_agents; i++) {
		struct scmi__agent *a = &s->agents[i];
		for (unsigned j = 0; a->perf && j < s->n_perf; j++) {
			struct scmi__perf_slot *p = &a->perf[j];
			if (!p->dev)
				continue;
			dmn__scmi_perf_apply(s, a, j, 0);
			dmn_detach(s->ctx, p->att);
			dmn_device_remove(s->ctx, p->dev);
		}
		for (unsigned k = 0; a->power && k < s->n_power; k++) {
			struct scmi__power_slot *p = &a->power[k];
			if (!p->dev)
				continue;
			dmn__scmi_power_set(s, a, k, 0);
			dmn_detach(s->ctx, p->att);
			dmn_device_remove(s->ctx, p->dev);
		}
		release(s, a->power);
		release(s, a->perf);
		release(s, a->notify_power);
		release(s, a->notify_level);
		release(s, a->notify_limits);
	}
	if (s->listening)
		dmn_unlisten(s->ctx, on_event, s);
	for (unsigned j = 0; s->perf && j < s->n_perf; j++)
		release(s, s->perf[j].levels);
	release(s, s->power);
	release(s, s->power_names);
	release(s, s->power_ext);
	release(s, s->perf);
	release(s, s->agents);
	release(s, s->scratch);
	release(s, s->async_fifo);
	release(s, s->notes);
	release(s, s->map);
	struct dmn_alloc_ops alloc = s->alloc;
	alloc.free(alloc.user, s);
}

int dmn_scmi_agent_device(const struct dmn_scmi_server *s, uint32_t agent_id, int perf,
		      unsigned index, dmn_device_t *out)
{
	if (!s || !out)
		return -EINVAL;
	if (agent_id > DMN_SCMI_MAX_AGENTS || !s->agent_index[agent_id])
		return -ENOENT;
	const struct scmi__agent *a = &s->agents[s->agent_index[agent_id] - 1];
	dmn_device_t dev = 0;
	if (perf && index < s->n_perf)
		dev = a->perf[index].dev;
	else if (!perf && index < s->n_power)
		dev = a->power[index].dev;
	if (!dev)
		return -ENOENT;
	*out = dev;
	return 0;
}
