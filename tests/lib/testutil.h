/* Helpers the tests share: temporary folders, small synthetic dumps, the
 * demo scene's skeletons and free ports. */
#pragma once

#include <gio/gio.h>

#include "base/depth.h"
#include "demo/demo-scene.h"
#include "tracker/tracker-types.h"

/** testutil_tmpdir: a fresh temporary folder, removed by testutil_rmdir(). */
char *testutil_tmpdir(void);
void testutil_rmdir(const char *dir);

/** testutil_pattern: raw frame @n of a deterministic test pattern. */
void testutil_pattern(guint n, guint16 *raw);

/**
 * testutil_write_dump:
 * Writes @n pattern frames to @dir with fakenect names, @interval seconds
 * apart; walltimes start at 1000 s, timestamps at 100000.
 */
void testutil_write_dump(const char *dir, guint n, double interval);

/** testutil_write_file: writes @len bytes or fails the test. */
void testutil_write_file(const char *path, const void *data, gsize len);

/** testutil_noise: a uniform number in [-1, 1) from @state, the same
 * sequence every run for the same start. */
double testutil_noise(guint32 *state);

/* The Kinect's readings of synthetic depth, as the demo sensor has them:
 * disparity (one step is TESTUTIL_KINECT_STEP times z^2 mm at depth z)
 * with noise shared by each 8x8 patch of pixels and noise of each
 * pixel's own, rounded to a step. Deterministic. */
#define TESTUTIL_KINECT_STEP 2.85e-6

typedef struct {
	guint32 state;
	double scale;  /* the noise this frame, 1 for the sensor's; 0 for none */
	double *patch; /* the shared noise per patch, this frame */
	int patches;   /* per row */
	int n_patches;
} TestutilKinect;

void testutil_kinect_init(TestutilKinect *k, int width, int height);
void testutil_kinect_clear(TestutilKinect *k);

/** testutil_kinect_frame: a new frame with noise @scale: new shared noise. */
void testutil_kinect_frame(TestutilKinect *k, double scale);

/** testutil_kinect_read: what pixel (@u, @v) reads of depth @z (0: nothing),
 * 0 at @max_mm and beyond. */
guint16 testutil_kinect_read(TestutilKinect *k, int u, int v, double z, double max_mm);

/** testutil_percentile: the @p (0..1) percentile of @values, which it sorts. */
double testutil_percentile(double *values, guint n, double p);

/**
 * testutil_binary:
 * The skelbridge binary under test ($SKELBRIDGE), or what wraps it
 * ($SKELBRIDGE_WRAPPER: valgrind, in the valgrind test setup).
 */
const char *testutil_binary(void);

/**
 * testutil_wait_ms:
 * @ms, or ten times as long when skelbridge runs under valgrind
 * ($SKELBRIDGE_WRAPPER), which makes it that much slower.
 */
gint64 testutil_wait_ms(guint ms);

/**
 * testutil_load_raw:
 * Reads a headerless 640x480 little-endian uint16 millimetre frame into
 * @mm, or fails the test.
 */
void testutil_load_raw(const char *path, guint16 *mm);

/**
 * testutil_real_kinect_dir:
 * The folder of real Kinect frames ($SKELBRIDGE_REAL_KINECT), or NULL
 * when it is not set or does not exist.
 */
const char *testutil_real_kinect_dir(void);

/** testutil_real_kinect_files: the frames in that folder, sorted; free with g_strfreev. */
char **testutil_real_kinect_files(const char *dir);

/**
 * testutil_real_rooms_dir:
 * The folder of real frames with the room left in ($SKELBRIDGE_REAL_ROOMS),
 * or NULL when it is not set or does not exist.
 */
const char *testutil_real_rooms_dir(void);

/** testutil_real_rooms_files: the frames (*.raw) in that folder, sorted; free with g_strfreev. */
char **testutil_real_rooms_files(const char *dir);

/**
 * testutil_real_rooms_marks:
 * The people marked on those frames: tests/data/real-rooms.csv under
 * $SKELBRIDGE_SOURCE_ROOT, or NULL when that is not set; g_free() it.
 */
char *testutil_real_rooms_marks(void);

/* What a spawned program did: exit status, standard output and error. */
typedef struct {
	int status;
	char *out;
	char *err;
} TestutilSpawned;

void testutil_spawned_clear(TestutilSpawned *s);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(TestutilSpawned, testutil_spawned_clear)

/** testutil_spawn: runs @argv to the end into @s, or fails the test. */
void testutil_spawn(TestutilSpawned *s, const char *const *argv);

/**
 * testutil_summary_count: N from the line "skelbridge: BEFORE N AFTER" of a
 * run's summary in @err (@after may end in '$'), or 0 without that line.
 */
guint64 testutil_summary_count(const char *err, const char *before, const char *after);

/**
 * testutil_scene_frames:
 * The skeletons the bridge sees (--skeletons truth) in the first @n frames
 * of the demo scene @scene, with the bridge's default seed; g_free() them.
 */
TrackerFrame *testutil_scene_frames(const char *scene, guint n);

/** testutil_scene_new: the demo scene @name with seed 1, or fails the test. */
DemoScene *testutil_scene_new(const char *name);

/** testutil_truth_person: the person with id @id in @truth, or NULL when it has none. */
const DemoTruthPerson *testutil_truth_person(const DemoTruth *truth, guint id);

/** testutil_joint_found: @joint is sent by the shipped mappings (confidence of at least 0.5). */
gboolean testutil_joint_found(const TrackerJoint *joint);

/** testutil_user_complete: all fifteen joints of @user are found. */
gboolean testutil_user_complete(const TrackerUser *user);

/** testutil_free_port: a loopback port with nothing listening, as far as one can tell. */
int testutil_free_port(GSocketType type);
