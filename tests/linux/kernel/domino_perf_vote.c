// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/*
 * A device of domino's tests that votes a performance state through genpd:
 * a "domino,perf-vote" node with power-domains = <&scmi_perf J> binds here
 * (genpd attaches it to the SCMI performance domain), and writing N to its
 * sysfs attribute perf_vote calls dev_pm_genpd_set_performance_state(dev,
 * N), as a driver does for its device. genpd aggregates the votes of the
 * domain's devices (the max) and scmi_perf_domain sends the result as
 * PERFORMANCE_LEVEL_SET through Linux's perf protocol code. Runtime PM is
 * left disabled, so a vote applies at once. Written for domino's tests;
 * scripts/linux.sh copies it into the kernel tree it builds.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>

struct perf_vote {
	unsigned int state;
};

static ssize_t perf_vote_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	struct perf_vote *v = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", v->state);
}

static ssize_t perf_vote_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t count)
{
	struct perf_vote *v = dev_get_drvdata(dev);
	unsigned int state;
	int ret = kstrtouint(buf, 0, &state);

	if (ret)
		return ret;
	ret = dev_pm_genpd_set_performance_state(dev, state);
	if (ret)
		return ret;
	v->state = state;
	return count;
}
static DEVICE_ATTR_RW(perf_vote);

static struct attribute *perf_vote_attrs[] = {
	&dev_attr_perf_vote.attr,
	NULL,
};
ATTRIBUTE_GROUPS(perf_vote);

static int perf_vote_probe(struct platform_device *pdev)
{
	struct perf_vote *v = devm_kzalloc(&pdev->dev, sizeof(*v), GFP_KERNEL);

	if (!v)
		return -ENOMEM;
	platform_set_drvdata(pdev, v);
	return 0;
}

static const struct of_device_id perf_vote_of_match[] = {
	{ .compatible = "domino,perf-vote" },
	{}
};
MODULE_DEVICE_TABLE(of, perf_vote_of_match);

static struct platform_driver perf_vote_driver = {
	.probe = perf_vote_probe,
	.driver = {
		.name = "domino-perf-vote",
		.of_match_table = perf_vote_of_match,
		.dev_groups = perf_vote_groups,
	},
};
module_platform_driver(perf_vote_driver);

MODULE_DESCRIPTION("A genpd performance-state voter for domino's tests");
MODULE_LICENSE("Dual MIT/GPL");
