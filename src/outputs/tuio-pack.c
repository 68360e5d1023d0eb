#include "tuio-pack.h"

#define BUNDLE_HEADER 16 /* "#bundle" padded, and the timetag */
#define ELEMENT_SIZE  4  /* each message in a bundle is preceded by its size */

TuioPacked *
tuio_packed_new(void)
{
	TuioPacked *packed = g_new0(TuioPacked, 1);

	packed->bundles = g_ptr_array_new_with_free_func((GDestroyNotify)message_batch_free);
	return packed;
}

void
tuio_packed_free(TuioPacked *packed)
{
	if (packed == NULL)
		return;
	g_ptr_array_unref(packed->bundles);
	g_free(packed);
}

const char *
tuio_pack_profile_address(TuioProfile profile)
{
	switch (profile) {
	case TUIO_PROFILE_2DCUR:
		return "/tuio/2Dcur";
	case TUIO_PROFILE_25DCUR:
		return "/tuio/25Dcur";
	case TUIO_PROFILE_3DCUR:
		return "/tuio/3Dcur";
	}
	return "/tuio/2Dcur";
}

static MessageBatch *
next_bundle(TuioPacked *packed)
{
	MessageBatch *batch;

	if (packed->n_bundles == packed->bundles->len)
		g_ptr_array_add(packed->bundles, message_batch_new());
	batch = g_ptr_array_index(packed->bundles, packed->n_bundles++);
	message_batch_clear(batch);
	return batch;
}

static void
add_source(MessageBatch *b, const char *address, const char *source)
{
	message_batch_add(b, 0, address);
	message_batch_add_string(b, "source");
	message_batch_add_string(b, source);
}

static void
add_alive(MessageBatch *b, const char *address, const TuioFrame *frame)
{
	message_batch_add(b, 0, address);
	message_batch_add_string(b, "alive");
	for (guint i = 0; i < frame->n_cursors; i++)
		message_batch_add_int32(b, frame->cursors[i].session);
}

static void
add_set(MessageBatch *b, const char *address, TuioProfile profile, const TuioCursor *c)
{
	gboolean depth = profile != TUIO_PROFILE_2DCUR;

	message_batch_add(b, c->user, address);
	message_batch_add_string(b, "set");
	message_batch_add_int32(b, c->session);
	message_batch_add_float32(b, c->x);
	message_batch_add_float32(b, c->y);
	if (depth)
		message_batch_add_float32(b, c->z);
	message_batch_add_float32(b, c->vx);
	message_batch_add_float32(b, c->vy);
	if (depth)
		message_batch_add_float32(b, c->vz);
	message_batch_add_float32(b, c->accel);
}

static void
add_fseq(MessageBatch *b, const char *address, gint32 fseq)
{
	message_batch_add(b, 0, address);
	message_batch_add_string(b, "fseq");
	message_batch_add_int32(b, fseq);
}

/* The bytes of a bundle holding every message of @b. */
static gsize
bundle_size(const MessageBatch *b)
{
	gsize size = BUNDLE_HEADER;

	for (guint i = 0; i < message_batch_length(b); i++)
		size += ELEMENT_SIZE + message_osc_size(b, message_batch_get(b, i));
	return size;
}

/* How many sets fit beside the parts every bundle repeats. */
static guint
sets_per_bundle(const TuioFrame *frame, TuioProfile profile, const char *source, guint max_packet,
                const char *address)
{
	g_autoptr(MessageBatch) probe = message_batch_new();
	gsize fixed, per_set;

	if (source != NULL)
		add_source(probe, address, source);
	add_alive(probe, address, frame);
	add_fseq(probe, address, frame->fseq);
	fixed = bundle_size(probe);
	message_batch_clear(probe);
	if (frame->n_cursors == 0)
		return 1;
	add_set(probe, address, profile, &frame->cursors[0]);
	per_set = ELEMENT_SIZE + message_osc_size(probe, message_batch_get(probe, 0));
	return fixed + per_set > max_packet ? 1 : (guint)((max_packet - fixed) / per_set);
}

void
tuio_pack(const TuioFrame *frame, TuioProfile profile, const char *source, guint max_packet,
          TuioPacked *packed)
{
	const char *address = tuio_pack_profile_address(profile);
	guint per = sets_per_bundle(frame, profile, source, max_packet, address);
	guint next = 0;

	packed->n_bundles = 0;
	do {
		MessageBatch *b = next_bundle(packed);
		guint end = MIN(frame->n_cursors, next + per);

		if (source != NULL)
			add_source(b, address, source);
		add_alive(b, address, frame);
		for (; next < end; next++)
			add_set(b, address, profile, &frame->cursors[next]);
		add_fseq(b, address, frame->fseq);
	} while (next < frame->n_cursors);
}
