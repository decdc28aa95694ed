/* SPDX-License-Identifier: MIT */
/* A connection's outgoing queue: frames in one byte ring, bounded in bytes
 * and in frames, written without blocking. */
#include "serve.h"
#include "../core/debug.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

int dmn__outq_init(struct dmn__outq *q, size_t bytes, unsigned frames)
{
	memset(q, 0, sizeof(*q));
	q->buf = malloc(bytes);
	q->frame_len = malloc(frames * sizeof(*q->frame_len));
	if (!q->buf || !q->frame_len) {
		dmn__outq_free(q);
		return -ENOMEM;
	}
	q->cap = bytes;
	q->frame_cap = frames;
	return 0;
}

void dmn__outq_free(struct dmn__outq *q)
{
	free(q->buf);
	free(q->frame_len);
	memset(q, 0, sizeof(*q));
}

int dmn__outq_fits(const struct dmn__outq *q, size_t len, size_t keep_bytes,
		   unsigned keep_frames)
{
	return q->frames + 1 + (size_t)keep_frames <= q->frame_cap &&
	       q->len + len + keep_bytes <= q->cap;
}

static void put_bytes(struct dmn__outq *q, const uint8_t *p, size_t n)
{
	DMN_ASSERT(q->len + n <= q->cap && "dmn__outq_fits said it fits");
	while (n) {
		size_t at = (q->head + q->len) % q->cap;
		size_t run = q->cap - at < n ? q->cap - at : n;
		memcpy(q->buf + at, p, run);
		q->len += run;
		p += run;
		n -= run;
	}
}

int dmn__outq_push(struct dmn__outq *q, const void *a, size_t alen,
		   const void *b, size_t blen)
{
	if (!dmn__outq_fits(q, alen + blen, 0, 0))
		return -ENOSPC;
	put_bytes(q, a, alen);
	if (b)
		put_bytes(q, b, blen);
	DMN_ASSERT(q->frames < q->frame_cap);
	q->frame_len[(q->frame_head + q->frames++) % q->frame_cap] =
	    (uint32_t)(alen + blen);
	return 0;
}

/* Bytes written leave the ring; whole frames leave the frame count. */
static void consume(struct dmn__outq *q, size_t n)
{
	DMN_ASSERT(n <= q->len && q->head < q->cap);
	q->head = (q->head + n) % q->cap;
	q->len -= n;
	q->front_sent += n;
	while (q->frames && q->front_sent >= q->frame_len[q->frame_head]) {
		q->front_sent -= q->frame_len[q->frame_head];
		q->frame_head = (q->frame_head + 1) % q->frame_cap;
		q->frames--;
	}
	if (!q->len)
		q->head = 0;
}

long dmn__outq_flush(struct dmn__outq *q, int fd)
{
	long total = 0;
	while (q->len) {
		struct iovec iov[2];
		size_t first = q->cap - q->head < q->len ? q->cap - q->head
							 : q->len;
		iov[0] = (struct iovec){q->buf + q->head, first};
		iov[1] = (struct iovec){q->buf, q->len - first};
		struct msghdr mh;
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = iov;
		mh.msg_iovlen = q->len > first ? 2 : 1;
		ssize_t w = sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (w < 0)
			return -errno;
		if (w == 0)
			break;
		consume(q, (size_t)w);
		total += w;
	}
	return total;
}

size_t dmn__outq_front(const struct dmn__outq *q, uint8_t *dst, size_t cap)
{
	if (!q->frames)
		return 0;
	DMN_ASSERT(q->front_sent <= q->frame_len[q->frame_head] &&
		   "a frame wholly sent has left the count");
	size_t len = q->frame_len[q->frame_head] - q->front_sent;
	for (size_t i = 0; i < len && i < cap; i++)
		dst[i] = q->buf[(q->head + i) % q->cap];
	return len;
}

void dmn__outq_pop(struct dmn__outq *q)
{
	if (q->frames)
		consume(q, q->frame_len[q->frame_head] - q->front_sent);
}
