/* SPDX-License-Identifier: MIT */
/*
 * domino-null-serve: `domino scmi-serve` whose PERFORMANCE_LEVEL_SET does
 * nothing. Linked from the same objects as `domino` with
 * -Wl,--wrap=dmn_scmi_handle: every other message is answered by the real
 * server (so Linux probes as usual), LEVEL_SET gets SUCCESS at once, the
 * domain untouched. The Linux round-trip benchmark (tests/linux) times a
 * level set through it and through `domino scmi-serve` in one run: the
 * transport's own cost, and domino's on top of it.
 */
#include <domino/scmi.h>

#include <string.h>

int __real_dmn_scmi_handle(struct dmn_scmi_server *srv, uint32_t agent_id,
			   const void *msg, size_t len, void *reply, size_t cap,
			   size_t *reply_len);
int __wrap_dmn_scmi_handle(struct dmn_scmi_server *srv, uint32_t agent_id,
			   const void *msg, size_t len, void *reply, size_t cap,
			   size_t *reply_len);

int __wrap_dmn_scmi_handle(struct dmn_scmi_server *srv, uint32_t agent_id,
			   const void *msg, size_t len, void *reply, size_t cap,
			   size_t *reply_len)
{
	const uint8_t *m = msg;
	uint32_t h = len >= 4 ? (uint32_t)m[0] | (uint32_t)m[1] << 8 |
				    (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24
			      : 0;
	if (len != 12 || !reply || !reply_len || cap < 8 ||
	    dmn_scmi_header_protocol(h) != DMN_SCMI_PROTOCOL_PERF ||
	    dmn_scmi_header_msg(h) != 0x7 ||
	    dmn_scmi_header_type(h) != DMN_SCMI_TYPE_COMMAND)
		return __real_dmn_scmi_handle(srv, agent_id, msg, len, reply,
					      cap, reply_len);
	memcpy(reply, msg, 4);
	memset((uint8_t *)reply + 4, 0, 4); /* SUCCESS */
	*reply_len = 8;
	return 0;
}
