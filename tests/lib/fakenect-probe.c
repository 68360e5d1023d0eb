/* A plain libfreenect client, written the way third-party programs use the
 * asynchronous API. Under fakenect it shows what any libfreenect program
 * would receive from one of our recordings: one line per depth frame with
 * its timestamp and a checksum of the raw data, then the count. */
#include <libfreenect.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int frames;

/* fakenect hands over a pointer just past the file's header, at an odd
 * address when no depth buffer is set: read it byte-wise. */
static uint64_t
raw_sum(const void *depth)
{
	const unsigned char *bytes = depth;
	uint64_t sum = 0;

	for (int i = 0; i < 640 * 480; i++) {
		uint16_t value;

		memcpy(&value, bytes + 2 * i, sizeof(value));
		sum = sum * 31 + value;
	}
	return sum;
}

static void
depth_callback(freenect_device *dev, void *depth, uint32_t timestamp)
{
	(void)dev;
	printf("frame %d %u %llu\n", frames++, timestamp, (unsigned long long)raw_sum(depth));
}

int
main(void)
{
	freenect_context *ctx;
	freenect_device *dev;

	if (freenect_init(&ctx, NULL) < 0)
		return 2;
	freenect_select_subdevices(ctx, FREENECT_DEVICE_CAMERA);
	if (freenect_num_devices(ctx) < 1 || freenect_open_device(ctx, &dev, 0) < 0)
		return 3;
	freenect_set_depth_callback(dev, depth_callback);
	freenect_set_depth_mode(
	        dev, freenect_find_depth_mode(FREENECT_RESOLUTION_MEDIUM, FREENECT_DEPTH_11BIT));
	freenect_start_depth(dev);
	while (freenect_process_events(ctx) >= 0)
		;
	printf("frames %d\n", frames);
	freenect_stop_depth(dev);
	freenect_close_device(dev);
	freenect_shutdown(ctx);
	return 0;
}
