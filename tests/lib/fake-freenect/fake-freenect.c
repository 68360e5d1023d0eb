/* A stand-in libfreenect for fault injection: a Kinect that streams, goes
 * away, stalls and comes back on cue. Tests put its folder first on
 * LD_LIBRARY_PATH, as Debian's fakenect does with its own library.
 *
 * FAKE_FREENECT_SCRIPT lists steps separated by ';':
 *   frames=N   deliver N frames at 30 per second
 *   burst=N    deliver N frames as fast as they are asked for, as a camera
 *              does to a bridge that has fallen behind
 *   unplug=S   the device is gone for S seconds (process_events fails,
 *              no device is listed)
 *   stall=S    the device stays listed but sends nothing for S seconds
 *   absent     no device at all, for ever
 * After the last step the device streams for ever. */
#include <libfreenect.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FRAME_US        33333
#define ERROR_NO_DEVICE (-4) /* LIBUSB_ERROR_NO_DEVICE */

typedef enum { STEP_FRAMES, STEP_BURST, STEP_UNPLUG, STEP_STALL, STEP_ABSENT } StepKind;

typedef struct {
	StepKind kind;
	double amount;
} Step;

static Step steps[32];
static int n_steps, current, frames_in_step;
static double step_end; /* for unplug and stall: when the step ends */
static int parsed;
static freenect_depth_cb depth_cb;
static void *user_ptr, *depth_buf;
static uint16_t frame[640 * 480];
static uint32_t timestamp;
static int opened;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
parse_script(void)
{
	const char *script = getenv("FAKE_FREENECT_SCRIPT");
	char buf[512], *tok, *save = NULL;

	parsed = 1;
	if (script == NULL)
		return;
	strncpy(buf, script, sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	for (tok = strtok_r(buf, ";", &save); tok && n_steps < 32;
	     tok = strtok_r(NULL, ";", &save)) {
		Step *s = &steps[n_steps++];

		if (strncmp(tok, "frames=", 7) == 0)
			*s = (Step){ STEP_FRAMES, atof(tok + 7) };
		else if (strncmp(tok, "burst=", 6) == 0)
			*s = (Step){ STEP_BURST, atof(tok + 6) };
		else if (strncmp(tok, "unplug=", 7) == 0)
			*s = (Step){ STEP_UNPLUG, atof(tok + 7) };
		else if (strncmp(tok, "stall=", 6) == 0)
			*s = (Step){ STEP_STALL, atof(tok + 6) };
		else
			*s = (Step){ STEP_ABSENT, 0 };
	}
}

static const Step *
step(void)
{
	if (!parsed)
		parse_script();
	return current < n_steps ? &steps[current] : NULL;
}

static void
next_step(void)
{
	const Step *s;

	current++;
	frames_in_step = 0;
	s = step();
	if (s != NULL && (s->kind == STEP_UNPLUG || s->kind == STEP_STALL))
		step_end = now() + s->amount;
}

/* Timed steps end by themselves. */
static void
advance_timed(void)
{
	const Step *s = step();

	if (s != NULL && (s->kind == STEP_UNPLUG || s->kind == STEP_STALL) && now() >= step_end)
		next_step();
}

static int
present(void)
{
	const Step *s;

	advance_timed();
	s = step();
	return s == NULL || (s->kind != STEP_UNPLUG && s->kind != STEP_ABSENT);
}

int
freenect_init(freenect_context **ctx, freenect_usb_context *usb_ctx)
{
	(void)usb_ctx;
	*ctx = (freenect_context *)&steps;
	return 0;
}

int
freenect_shutdown(freenect_context *ctx)
{
	(void)ctx;
	return 0;
}

void
freenect_set_log_level(freenect_context *ctx, freenect_loglevel level)
{
	(void)ctx;
	(void)level;
}

void
freenect_select_subdevices(freenect_context *ctx, freenect_device_flags subdevs)
{
	(void)ctx;
	(void)subdevs;
}

int
freenect_num_devices(freenect_context *ctx)
{
	(void)ctx;
	return present() ? 1 : 0;
}

int
freenect_open_device(freenect_context *ctx, freenect_device **dev, int index)
{
	(void)ctx;
	if (index != 0 || !present())
		return -1;
	*dev = (freenect_device *)&frame;
	opened = 1;
	return 0;
}

int
freenect_close_device(freenect_device *dev)
{
	(void)dev;
	opened = 0;
	return 0;
}

void
freenect_set_user(freenect_device *dev, void *user)
{
	(void)dev;
	user_ptr = user;
}

void *
freenect_get_user(freenect_device *dev)
{
	(void)dev;
	return user_ptr;
}

void
freenect_set_depth_callback(freenect_device *dev, freenect_depth_cb cb)
{
	(void)dev;
	depth_cb = cb;
}

freenect_frame_mode
freenect_find_depth_mode(freenect_resolution res, freenect_depth_format fmt)
{
	freenect_frame_mode mode = { 0 };

	mode.resolution = res;
	mode.depth_format = fmt;
	mode.bytes = sizeof(frame);
	mode.width = 640;
	mode.height = 480;
	mode.data_bits_per_pixel = 11;
	mode.padding_bits_per_pixel = 5;
	mode.framerate = 30;
	mode.is_valid = fmt == FREENECT_DEPTH_11BIT;
	return mode;
}

int
freenect_set_depth_mode(freenect_device *dev, const freenect_frame_mode mode)
{
	(void)dev;
	return mode.is_valid ? 0 : -1;
}

int
freenect_set_depth_buffer(freenect_device *dev, void *buf)
{
	(void)dev;
	depth_buf = buf;
	return 0;
}

int
freenect_start_depth(freenect_device *dev)
{
	(void)dev;
	return 0;
}

int
freenect_stop_depth(freenect_device *dev)
{
	(void)dev;
	return 0;
}

static void
deliver_frame(void)
{
	void *out = depth_buf ? depth_buf : frame;

	for (int i = 0; i < 640 * 480; i++)
		frame[i] = (uint16_t)(600 + (i + timestamp / 1000) % 300);
	if (out != frame)
		memcpy(out, frame, sizeof(frame));
	timestamp += FRAME_US;
	if (depth_cb)
		depth_cb((freenect_device *)&frame, out, timestamp);
}

int
freenect_process_events(freenect_context *ctx)
{
	const Step *s;

	(void)ctx;
	if (!present() || !opened)
		return ERROR_NO_DEVICE;
	s = step();
	if (s == NULL || s->kind != STEP_BURST)
		usleep(FRAME_US);
	if (s != NULL && s->kind == STEP_STALL)
		return 0;
	deliver_frame();
	if (s != NULL && (s->kind == STEP_FRAMES || s->kind == STEP_BURST) &&
	    ++frames_in_step >= (int)s->amount)
		next_step();
	return 0;
}

int
freenect_process_events_timeout(freenect_context *ctx, struct timeval *timeout)
{
	(void)timeout;
	return freenect_process_events(ctx);
}
