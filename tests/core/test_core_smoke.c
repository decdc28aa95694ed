#include <domino/domain.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>

static uint32_t applied;
static int set_ps(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user; (void)dom;
	applied = level;
	return 0;
}
static const struct dmn_domain_ops ops = {0, 0, set_ps, 0};

static void smoke(void **state)
{
	(void)state;
	struct dmn_ctx *ctx;
	assert_int_equal(dmn_ctx_create(0, &ctx), 0);
	dmn_domain_t p, c;
	struct dmn_domain_desc dp = {"parent", &ops, 0, 0};
	struct dmn_domain_desc dc = {"child", 0, 0, 0};
	assert_int_equal(dmn_domain_create(ctx, &dp, &p), 0);
	assert_int_equal(dmn_domain_create(ctx, &dc, &c), 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	assert_int_equal(dmn_link_add(ctx, c, p), -ELOOP);
	dmn_device_t dev;
	dmn_attach_t a;
	assert_int_equal(dmn_device_create(ctx, "dev", &dev), 0);
	assert_int_equal(dmn_attach(ctx, dev, c, &a), 0);
	assert_int_equal(dmn_vote(ctx, a, 5), 0);
	assert_int_equal(applied, 0);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(applied, 5);
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(ctx, p, &info), 0);
	assert_true(info.on);
	assert_int_equal(info.pstate, 5);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_int_equal(applied, 0);
	assert_int_equal(dmn_domain_info(ctx, p, &info), 0);
	assert_false(info.on);
	dmn_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(smoke)};
	return cmocka_run_group_tests(tests, 0, 0);
}
