"""The S3 endpoint through boto3 (Debian's python3-boto3), against the endpoint's own origin.

Run by tests/integration/storage/boto3.test.ts, which starts the server and passes:
  S3_ENDPOINT   http://127.0.0.1:PORT (the root of STORAGE_LISTEN_PORT)
  S3_HOSTNAME   STORAGE_HOSTNAME: {bucket}.{S3_HOSTNAME} is virtual-hosted style
  S3_BUCKET, S3_REGION
  ROOT_KEY, ROOT_SECRET                              the root credential
  USER_KEY, USER_SECRET, USER_TOKEN, USER_ID         a signed-in user's identity-pool credentials
  OTHER_KEY, OTHER_SECRET, OTHER_TOKEN, OTHER_ID     another user's
Prints "N passed, N failed" last and exits 1 if anything failed.
"""

import base64
import os
import socket
import struct
import sys
import unittest
import uuid
import zlib
from urllib.parse import urlsplit

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

ENV = os.environ
BUCKET = ENV["S3_BUCKET"]
HOSTNAME = ENV["S3_HOSTNAME"]
PORT = urlsplit(ENV["S3_ENDPOINT"]).port
PART = 5 * 1024 * 1024

# {bucket}.{HOSTNAME} has no DNS here: resolve the storage host name and its subdomains to the
# loopback address the server listens on, as a DNS wildcard record would.
_getaddrinfo = socket.getaddrinfo


def _resolve(host, *args, **kwargs):
    if isinstance(host, str) and (host == HOSTNAME or host.endswith("." + HOSTNAME)):
        host = "127.0.0.1"
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _resolve


def client(who="USER", style="path", endpoint=None):
    return boto3.client(
        "s3",
        endpoint_url=endpoint or ENV["S3_ENDPOINT"],
        region_name=ENV["S3_REGION"],
        aws_access_key_id=ENV[who + "_KEY"],
        aws_secret_access_key=ENV[who + "_SECRET"],
        aws_session_token=ENV.get(who + "_TOKEN") or None,
        config=Config(s3={"addressing_style": style}, retries={"max_attempts": 1}),
    )


def own(who, name):
    return "private/%s/boto3-%s-%s" % (ENV[who + "_ID"], uuid.uuid4().hex[:8], name)


def error_of(call):
    try:
        call()
    except ClientError as error:
        return error.response["Error"]["Code"], error.response["ResponseMetadata"]
    raise AssertionError("expected an error, but the call succeeded")


def composite_crc32(parts):
    joined = b"".join(base64.b64decode(part["ChecksumCRC32"]) for part in parts)
    return base64.b64encode(struct.pack(">I", zlib.crc32(joined))).decode()


class S3Case(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = client("USER")
        cls.other = client("OTHER")
        cls.root = client("ROOT")

    def two_parts(self, key):
        upload_id = self.user.create_multipart_upload(
            Bucket=BUCKET, Key=key, ChecksumAlgorithm="CRC32"
        )["UploadId"]
        parts = []
        for number, body in ((1, os.urandom(PART)), (2, os.urandom(1000))):
            answer = self.user.upload_part(
                Bucket=BUCKET,
                Key=key,
                UploadId=upload_id,
                PartNumber=number,
                Body=body,
                ChecksumAlgorithm="CRC32",
            )
            parts.append(
                {"PartNumber": number, "ETag": answer["ETag"], "ChecksumCRC32": answer["ChecksumCRC32"]}
            )
        return upload_id, parts

    def complete(self, key, upload_id, parts, **extra):
        return self.user.complete_multipart_upload(
            Bucket=BUCKET, Key=key, UploadId=upload_id, MultipartUpload={"Parts": parts}, **extra
        )


class CompleteRetried(S3Case):
    def test_a_repeated_complete_answers_the_same_etag(self):
        key = own("USER", "retried.bin")
        upload_id, parts = self.two_parts(key)
        first = self.complete(key, upload_id, parts)
        again = self.complete(key, upload_id, parts)
        self.assertEqual(again["ETag"], first["ETag"])
        self.assertEqual(error_of(lambda: self.other.complete_multipart_upload(
            Bucket=BUCKET, Key=key, UploadId=upload_id, MultipartUpload={"Parts": parts}))[0],
            "AccessDenied")

    def test_a_part_listed_twice_is_invalid_part_order(self):
        key = own("USER", "twice.bin")
        upload_id, parts = self.two_parts(key)
        code, _ = error_of(lambda: self.complete(key, upload_id, [parts[0], parts[0], parts[1]]))
        self.assertEqual(code, "InvalidPartOrder")
        self.assertTrue(self.complete(key, upload_id, parts)["ETag"].endswith('-2"'))


class MissingOperations(S3Case):
    def test_list_multipart_uploads_with_prefix_delimiter_and_paging(self):
        base = own("USER", "listing/")
        keys = [base + "a/1", base + "a/2", base + "b", base + "b", base + "c"]
        for key in keys:
            self.user.create_multipart_upload(Bucket=BUCKET, Key=key)
        everything = self.user.list_multipart_uploads(Bucket=BUCKET, Prefix=base)
        self.assertEqual([upload["Key"] for upload in everything["Uploads"]], keys)
        paged, markers = [], {}
        for _ in range(10):
            page = self.user.list_multipart_uploads(Bucket=BUCKET, Prefix=base, MaxUploads=2, **markers)
            paged += [upload["UploadId"] for upload in page.get("Uploads", [])]
            if not page["IsTruncated"]:
                break
            markers = {"KeyMarker": page["NextKeyMarker"], "UploadIdMarker": page["NextUploadIdMarker"]}
        self.assertEqual(paged, [upload["UploadId"] for upload in everything["Uploads"]])
        rolled = self.user.list_multipart_uploads(Bucket=BUCKET, Prefix=base, Delimiter="/")
        self.assertEqual([prefix["Prefix"] for prefix in rolled["CommonPrefixes"]], [base + "a/"])
        self.assertEqual([upload["Key"] for upload in rolled["Uploads"]], keys[2:])

    def test_delete_bucket_refused_while_an_upload_is_unfinished(self):
        bucket = "boto3-" + uuid.uuid4().hex[:10]
        self.root.create_bucket(Bucket=bucket)
        self.root.create_multipart_upload(Bucket=bucket, Key="pending")
        self.assertEqual(error_of(lambda: self.root.delete_bucket(Bucket=bucket))[0], "BucketNotEmpty")
        for upload in self.root.list_multipart_uploads(Bucket=bucket)["Uploads"]:
            self.root.abort_multipart_upload(Bucket=bucket, Key=upload["Key"], UploadId=upload["UploadId"])
        self.root.delete_bucket(Bucket=bucket)

    def test_upload_part_copy_with_a_range_and_the_callers_rights(self):
        source = os.urandom(PART + 100)
        source_key = "public/boto3-copy-%s.bin" % uuid.uuid4().hex[:8]
        self.other.put_object(Bucket=BUCKET, Key=source_key, Body=source)
        key = own("USER", "copied.bin")
        upload_id = self.user.create_multipart_upload(Bucket=BUCKET, Key=key)["UploadId"]

        def copy(number, copy_source, copy_range=None):
            extra = {"CopySourceRange": copy_range} if copy_range else {}
            return self.user.upload_part_copy(
                Bucket=BUCKET, Key=key, UploadId=upload_id, PartNumber=number,
                CopySource={"Bucket": BUCKET, "Key": copy_source}, **extra)

        first = copy(1, source_key, "bytes=0-%d" % (PART - 1))["CopyPartResult"]
        second = copy(2, source_key, "bytes=%d-%d" % (PART, PART + 99))["CopyPartResult"]
        self.assertEqual(error_of(lambda: copy(3, source_key, "bytes=0-%d" % (PART + 100)))[0], "InvalidRange")
        secret = own("OTHER", "secret.bin")
        self.other.put_object(Bucket=BUCKET, Key=secret, Body=b"secret")
        self.assertEqual(error_of(lambda: copy(3, secret))[0], "AccessDenied")
        self.complete(key, upload_id, [
            {"PartNumber": 1, "ETag": first["ETag"]}, {"PartNumber": 2, "ETag": second["ETag"]}])
        self.assertEqual(self.user.get_object(Bucket=BUCKET, Key=key)["Body"].read(), source)

    def test_get_object_attributes(self):
        key = own("USER", "attributes.bin")
        upload_id, parts = self.two_parts(key)
        done = self.complete(key, upload_id, parts)
        names = ["ETag", "Checksum", "ObjectParts", "StorageClass", "ObjectSize"]
        answer = self.user.get_object_attributes(Bucket=BUCKET, Key=key, ObjectAttributes=names)
        self.assertEqual(answer["ETag"], done["ETag"].strip('"'))
        self.assertEqual(answer["ObjectSize"], PART + 1000)
        self.assertEqual(answer["StorageClass"], "STANDARD")
        self.assertEqual(answer["Checksum"]["ChecksumCRC32"], composite_crc32(parts))
        self.assertEqual(answer["ObjectParts"]["TotalPartsCount"], 2)
        self.assertEqual([(part["PartNumber"], part["Size"]) for part in answer["ObjectParts"]["Parts"]],
                         [(1, PART), (2, 1000)])
        page = self.user.get_object_attributes(
            Bucket=BUCKET, Key=key, ObjectAttributes=["ObjectParts"], MaxParts=1, PartNumberMarker=1)
        self.assertEqual([part["PartNumber"] for part in page["ObjectParts"]["Parts"]], [2])


class Conditions(S3Case):
    def test_conditional_puts(self):
        key = own("USER", "conditional.txt")
        self.assertEqual(error_of(lambda: self.user.put_object(
            Bucket=BUCKET, Key=key, Body=b"v0", IfMatch='"0123"'))[0], "NoSuchKey")
        first = self.user.put_object(Bucket=BUCKET, Key=key, Body=b"v1", IfNoneMatch="*")
        code, meta = error_of(lambda: self.user.put_object(Bucket=BUCKET, Key=key, Body=b"v2", IfNoneMatch="*"))
        self.assertEqual((code, meta["HTTPStatusCode"]), ("PreconditionFailed", 412))
        self.assertEqual(error_of(lambda: self.user.put_object(
            Bucket=BUCKET, Key=key, Body=b"v2", IfMatch='"0123"'))[0], "PreconditionFailed")
        self.user.put_object(Bucket=BUCKET, Key=key, Body=b"v2", IfMatch=first["ETag"])
        self.assertEqual(self.user.get_object(Bucket=BUCKET, Key=key)["Body"].read(), b"v2")

    def test_conditional_complete(self):
        key = own("USER", "conditional.bin")
        self.user.put_object(Bucket=BUCKET, Key=key, Body=b"there")
        upload_id, parts = self.two_parts(key)
        self.assertEqual(error_of(lambda: self.complete(key, upload_id, parts, IfNoneMatch="*"))[0],
                         "PreconditionFailed")

    def test_a_304_carries_validators_and_caching_headers(self):
        key = own("USER", "cached.txt")
        put = self.user.put_object(Bucket=BUCKET, Key=key, Body=b"cached", CacheControl="max-age=60")
        code, meta = error_of(lambda: self.user.get_object(Bucket=BUCKET, Key=key, IfNoneMatch=put["ETag"]))
        self.assertEqual(meta["HTTPStatusCode"], 304)
        self.assertEqual(meta["HTTPHeaders"]["etag"], put["ETag"])
        self.assertIn("last-modified", meta["HTTPHeaders"])
        self.assertEqual(meta["HTTPHeaders"]["cache-control"], "max-age=60")

    def test_an_empty_continuation_token_is_none(self):
        answer = self.user.list_objects_v2(Bucket=BUCKET, Prefix="public/", ContinuationToken="")
        self.assertEqual(answer["ResponseMetadata"]["HTTPStatusCode"], 200)

    def test_checksum_at_complete(self):
        key = own("USER", "composite.bin")
        upload_id, parts = self.two_parts(key)
        self.assertEqual(error_of(lambda: self.complete(key, upload_id, parts, ChecksumCRC32="AAAAAA==-2"))[0],
                         "BadDigest")
        composite = composite_crc32(parts) + "-2"
        done = self.complete(key, upload_id, parts, ChecksumCRC32=composite)
        self.assertEqual(done["ChecksumCRC32"], composite)


class OwnOrigin(S3Case):
    def round_trip(self, s3):
        key = own("USER", "origin.txt")
        s3.put_object(Bucket=BUCKET, Key=key, Body=b"hello")
        self.assertEqual(s3.get_object(Bucket=BUCKET, Key=key)["Body"].read(), b"hello")
        listed = s3.list_objects_v2(Bucket=BUCKET, Prefix=key)
        self.assertEqual([item["Key"] for item in listed["Contents"]], [key])

    def test_path_style_at_the_root(self):
        self.round_trip(client("USER", "path"))

    def test_virtual_hosted_style(self):
        endpoint = "http://%s:%d" % (HOSTNAME, PORT)
        s3 = client("USER", "virtual", endpoint)
        self.round_trip(s3)
        # The bucket travelled in the host name, not the path.
        seen = []
        s3.meta.events.register("before-send.s3.*", lambda request, **_: seen.append(request.url))
        s3.list_objects_v2(Bucket=BUCKET, MaxKeys=1, Prefix="public/")
        self.assertTrue(seen[0].startswith("http://%s.%s:%d/" % (BUCKET, HOSTNAME, PORT)), seen[0])


if __name__ == "__main__":
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(
        unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    )
    failed = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - failed, failed))
    sys.exit(1 if failed or result.testsRun == 0 else 0)
